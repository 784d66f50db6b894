/** The data directory is there but is not a database we can open; it is never wiped. */
export class DataDirCorruptError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DataDirCorruptError';
  }
}
