import sharp from 'sharp';

/** A one-page PDF with nothing active in it. */
export const MINIMAL_PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
    '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

/** A phone photo of a referral: 1200 x 900 with the camera and GPS position in its EXIF. */
export function referralPhoto(): Promise<Buffer> {
  return sharp({ create: { width: 1200, height: 900, channels: 3, background: { r: 240, g: 240, b: 230 } } })
    .withExif({
      IFD0: { Make: 'PortalTestCamera', Model: 'Secret Phone 15' },
      IFD3: { GPSLatitudeRef: 'S', GPSLatitude: '33/1 52/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '151/1 12/1 0/1' },
    })
    .jpeg()
    .toBuffer();
}
