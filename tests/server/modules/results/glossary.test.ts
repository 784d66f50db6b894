import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { GlossarySchema } from '@contract/api/results-glossary';
import { loadGlossary, registerGlossaryRoute } from '../../../../src-server/modules/results/glossary';
import { useTestApp } from '../../helpers/test-app';

// The provider's glossary of radiology terms (docs/rules/results.md#glossary).

const TERMS_ASKED_FOR = [
  'opacity',
  'effusion',
  'nodule',
  'unremarkable',
  'degenerative',
  'osteophyte',
  'atelectasis',
  'lesion',
  'hyperintense',
  'meniscus',
];

describe('the glossary route', () => {
  const server = useTestApp({});

  it("serves the demo provider's glossary to anyone: at least 100 terms, cacheable, and 304 for a current copy", async () => {
    const response = await server.app.inject({ method: 'GET', url: '/api/results-glossary' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=86400');
    const glossary = GlossarySchema.parse(response.json());
    expect(glossary.terms.length).toBeGreaterThanOrEqual(100);
    const names = glossary.terms.map((term) => term.term.toLowerCase());
    for (const term of TERMS_ASKED_FOR) expect(names).toContain(term);
    const etag = response.headers.etag;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await server.app.inject({ method: 'GET', url: '/api/results-glossary', headers: { 'if-none-match': String(etag) } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });
});

describe('loadGlossary', () => {
  const fileWith = async (content: string) => {
    const file = path.join(await mkdtemp(path.join(tmpdir(), 'glossary-')), 'glossary.json');
    await writeFile(file, content);
    return file;
  };

  it('refuses a file that breaks the contract or names a term twice', async () => {
    await expect(loadGlossary(await fileWith('{"terms":[{"term":"<b>x</b>","definition":"d"}]}'))).rejects.toThrow(/contract/);
    await expect(
      loadGlossary(await fileWith('{"terms":[{"term":"cyst","definition":"a"},{"term":"Cyst","definition":"b"}]}')),
    ).rejects.toThrow(/twice/);
  });

  it('answers a server error, not half a glossary, when the file is broken, and tries again on the next request', async () => {
    const app = Fastify();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    let calls = 0;
    registerGlossaryRoute(app, async () => {
      calls += 1;
      if (calls === 1) throw new Error('broken');
      return loadGlossary();
    });
    expect((await app.inject({ method: 'GET', url: '/api/results-glossary' })).statusCode).toBe(500);
    expect((await app.inject({ method: 'GET', url: '/api/results-glossary' })).statusCode).toBe(200);
    await app.close();
  });
});
