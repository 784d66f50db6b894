import type { Readable } from 'node:stream';
import type { FastifyReply, FastifySchema } from 'fastify';
import type { RouteAccess } from '../../platform/route-access';
import { sendStoredPdf, servedFilePolicy, type RefusalPage } from '../../platform/served-file';
import { contentDisposition } from '../attachments/public';

/**
 * A report as a PDF, the same wherever it is served (the patient's result and history, a shared
 * result, the referrer's quick report): never cached or sniffed, inline unless the query asks
 * for download=true.
 */

export type PdfDisposition = 'attachment' | 'inline';

/** The options of a report PDF route; a refused document navigation goes to `refusalPage`. */
export function reportPdfRoute(access: RouteAccess, refusalPage: RefusalPage) {
  return <Schema extends FastifySchema>(schema: Schema) => ({
    onSend: servedFilePolicy,
    config: { access, refusalPage },
    schema: { ...schema, produces: ['application/pdf'] },
  });
}

/** Loads the PDF for the disposition the query asks for and sends it. */
export async function sendReportPdf(
  reply: FastifyReply,
  download: 'true' | 'false' | undefined,
  load: (disposition: PdfDisposition) => Promise<{ stream: Readable; size: number; fileName: string }>,
): Promise<FastifyReply> {
  const disposition = download === 'true' ? 'attachment' : 'inline';
  const pdf = await load(disposition);
  return sendStoredPdf(reply, pdf, contentDisposition(disposition, pdf.fileName));
}
