/**
 * PGlite's shared buffer pool, in MB. PostgreSQL's own 128 MB is cleared at every start, which
 * costs PGlite about 3 ms per MB on one core (0.3-0.5 s of a warm start); the operating system's
 * file cache keeps a larger database's pages warm behind a smaller pool.
 */
export const PGLITE_SHARED_BUFFERS_MB = 16;
