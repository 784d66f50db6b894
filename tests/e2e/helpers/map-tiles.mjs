// Map tiles for the end-to-end journeys and screenshots, generated here and served on this machine:
// the tests never fetch tiles from the internet. Each tile is a 256 x 256 PNG in a pale land colour
// with a road-like line along two edges, so a screenshot shows the map's grid of tiles.
import { createServer } from 'node:http';
import { deflateSync } from 'node:zlib';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes) {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A 256 x 256 RGB PNG: land colour, and a 6 px light line on the top and left edges. */
export function tilePng(land = [232, 238, 226], road = [255, 255, 255]) {
  const size = 256;
  const rows = [];
  for (let y = 0; y < size; y += 1) {
    const row = Buffer.alloc(1 + size * 3);
    for (let x = 0; x < size; x += 1) {
      const colour = x < 6 || y < 6 ? road : land;
      row.set(colour, 1 + x * 3);
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Serves the tile for every /{z}/{x}/{y}.png on 127.0.0.1:port; counts the tiles it served. */
export function startTileServer(port) {
  const png = tilePng();
  let served = 0;
  const server = createServer((request, response) => {
    if (!/^\/\d+\/\d+\/\d+\.png$/.test(request.url ?? '')) {
      response.writeHead(404).end();
      return;
    }
    served += 1;
    response.writeHead(200, { 'content-type': 'image/png', 'cache-control': 'public, max-age=3600' });
    response.end(png);
  });
  return new Promise((resolve) =>
    server.listen(port, '127.0.0.1', () =>
      resolve({ url: `http://127.0.0.1:${port}/{z}/{x}/{y}.png`, served: () => served, close: () => server.close() }),
    ),
  );
}
