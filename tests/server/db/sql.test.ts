import { describe, expect, it } from 'vitest';
import { likeLiteral } from '../../../src-server/db/sql';
import { backends } from '../helpers/database';
import { useTestDatabase } from '../helpers/test-app';

// likeLiteral on the real databases: what the escaped text matches under LIKE.
describe.each(backends())('likeLiteral on %s', (backend) => {
  const test = useTestDatabase({ backend, state: 'migrated' });
  const matches = async (text: string, pattern: string): Promise<boolean> => {
    const [row] = await test.db.query<{ hit: boolean }>(`select $1::text like $2::text as hit`, [text, pattern]);
    return row?.hit === true;
  };

  it('matches %, _ and a backslash only as themselves', async () => {
    expect(likeLiteral('50%_a\\b')).toBe('50\\%\\_a\\\\b');
    expect(await matches('50%_a\\b', likeLiteral('50%_a\\b'))).toBe(true);
    expect(await matches('5000', `${likeLiteral('5%')}%`)).toBe(false);
    expect(await matches('5%00', `${likeLiteral('5%')}%`)).toBe(true);
    expect(await matches('ab', likeLiteral('a_'))).toBe(false);
  });
});
