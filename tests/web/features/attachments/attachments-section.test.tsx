import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp, type RenderedApp } from '../../helpers/render-app';
import { STAFF_USER } from '../../helpers/staff-users';
import { appointmentServer, BOOKING_KEY } from '../appointments/appointment-fixtures';
import { attachmentFixture, attachmentsServer, BASE, REFERRAL_TYPE_ID, type AttachmentsServer } from './attachments-fixtures';

// The documents section on the appointment page (docs/rules/attachments.md#the-web-app), against
// a local HTTP server answering the contract's shapes.

const PAGE = `/appointments/${BOOKING_KEY}`;
const PDF = new File(['%PDF-1.4\n%%EOF\n'], 'referral.pdf', { type: 'application/pdf' });

async function open(files: AttachmentsServer = attachmentsServer(), options: { staff?: boolean; url?: string } = {}) {
  const app = await renderApp(options.url ?? PAGE, {
    routes: { ...appointmentServer({ consentForms: [] }).routes, ...files.routes },
    ...(options.staff ? { staffUser: STAFF_USER } : {}),
  });
  // The section is a lazy chunk with its own texts: the first test waits for it to load.
  const section = (await screen.findByRole('heading', { level: 2, name: 'Documents' }, { timeout: 10_000 })).closest('section')!;
  await within(section).findByRole('heading', { level: 3, name: 'Referral' });
  return { app, files, section };
}

function pick(slot: string, file: File) {
  const input = document.querySelector<HTMLInputElement>(`[data-testid="file-${slot}"]`)!;
  fireEvent.change(input, { target: { files: [file] } });
}

/** The referral's upload slot. */
const referralSlot = (section: HTMLElement) => section.querySelector<HTMLElement>(`[data-slot="${REFERRAL_TYPE_ID}"]`)!;

const location = (app: RenderedApp) => `${app.router.state.location.pathname}${app.router.state.location.search}`;

describe('documents on the appointment page', () => {
  it('should ask for the referral, upload it when it is picked, and show it as uploaded', async () => {
    const { files, section } = await open();
    expect(within(referralSlot(section)).getByText('Not uploaded yet')).toBeTruthy();
    expect(within(section).getByText('Allowed file types: PDF, JPEG, PNG. Up to 10 MB per file.')).toBeTruthy();
    expect(within(section).getByRole('button', { name: 'Choose a file for Referral' })).toBeTruthy();
    expect(within(section).getByRole('button', { name: 'Take a photo for Referral' })).toBeTruthy();
    const camera = document.querySelector<HTMLInputElement>(`[data-testid="camera-${REFERRAL_TYPE_ID}"]`)!;
    expect(camera.getAttribute('capture')).toBe('environment');
    expect(document.querySelector(`[data-testid="file-${REFERRAL_TYPE_ID}"]`)?.getAttribute('accept')).toBe(
      'application/pdf,.pdf,image/jpeg,.jpg,.jpeg,image/png,.png',
    );

    pick(REFERRAL_TYPE_ID, PDF);
    expect(await within(section).findByText('referral.pdf was added.')).toBeTruthy();
    expect(await within(section).findByText('Uploaded: referral.pdf')).toBeTruthy();
    expect(within(section).getByRole('button', { name: 'Replace the file for Referral' })).toBeTruthy();
    expect(files.uploads).toHaveLength(1);
    const sent = files.uploads[0]!;
    expect(sent.method).toBe('POST');
    // The document type goes before the file: the server reads fields first.
    expect(sent.body.indexOf(REFERRAL_TYPE_ID)).toBeGreaterThan(0);
    expect(sent.body.indexOf(REFERRAL_TYPE_ID)).toBeLessThan(sent.body.indexOf('filename="referral.pdf"'));
    // Patients cannot delete.
    expect(within(section).queryByRole('button', { name: /Delete/ })).toBeNull();
  });

  it('should say which file types are allowed when another is picked, and send nothing', async () => {
    const { files, section } = await open();
    pick(REFERRAL_TYPE_ID, new File(['hello'], 'notes.txt', { type: 'text/plain' }));
    expect((await within(section).findByRole('alert')).textContent).toBe(
      'This kind of file cannot be added. Allowed referral file types: PDF, JPEG, PNG.',
    );
    pick(REFERRAL_TYPE_ID, new File(['x'], 'IMG_0001.HEIC', { type: '' }));
    expect(within(section).getByRole('alert').textContent).toContain('Allowed referral file types');
    expect(files.uploads).toHaveLength(0);
  });

  it("should show the server's refusal under the document", async () => {
    const files = attachmentsServer();
    files.refuseNext(415, 'This PDF contains scripts or actions, so we cannot accept it.');
    const { section } = await open(files);
    pick(REFERRAL_TYPE_ID, PDF);
    expect((await within(section).findByRole('alert')).textContent).toBe('This PDF contains scripts or actions, so we cannot accept it.');
    expect(within(referralSlot(section)).getByText('Not uploaded yet')).toBeTruthy();
  });

  it("should say the booking's document space is full, in the page's words, when the server finds it full", async () => {
    const files = attachmentsServer();
    files.refuseNext(413, "This booking's document space is full.", 'document_space_full', { leftBytes: 0 });
    const { section } = await open(files);
    pick(REFERRAL_TYPE_ID, PDF);
    expect((await within(section).findByRole('alert')).textContent).toBe(
      "This booking's document space is full. Replace a document with a smaller file, or bring this one on the day.",
    );
    expect((await within(section).findByRole('alert')).textContent).not.toContain('0 MB');
  });

  it("should say how much of the booking's document space is left before sending a file that does not fit", async () => {
    // 49.9 MB of the booking's 50 MB are used by a document of no requested type.
    const used = attachmentFixture('scans.pdf', 'application/pdf', {
      documentTypeId: null,
      documentType: null,
      documentTypeCode: null,
      size: 52_428_800 - 150_000,
    });
    const { files, section } = await open(attachmentsServer([used]));
    pick(REFERRAL_TYPE_ID, new File([new Uint8Array(200_000)], 'big.pdf', { type: 'application/pdf' }));
    expect(within(section).getByRole('alert').textContent).toBe(
      "This file does not fit in this booking's document space (0.1 MB left). Choose a smaller file, replace a document, or bring this one on the day.",
    );
    expect(files.uploads).toHaveLength(0);
  });

  it('should say that documents cannot be taken while booking when their storage is full (507)', async () => {
    const files = attachmentsServer();
    files.refuseNext(507, 'We cannot take more documents while booking right now.', 'insufficient_storage');
    const { section } = await open(files);
    pick(REFERRAL_TYPE_ID, PDF);
    expect((await within(section).findByRole('alert')).textContent).toBe(
      'We cannot take more documents while booking right now. Please bring this document on the day, or upload it after booking.',
    );
  });

  it("should give the server's own words when its disk is full (507, reason disk_full)", async () => {
    const files = attachmentsServer();
    const message = 'Your document could not be saved because our storage is full. Nothing was saved.';
    files.refuseNext(507, message, 'insufficient_storage', { reason: 'disk_full' });
    const { section } = await open(files);
    pick(REFERRAL_TYPE_ID, PDF);
    expect((await within(section).findByRole('alert')).textContent).toBe(message);
  });

  it('should replace the uploaded referral with PUT on its id', async () => {
    const existing = attachmentFixture('old-referral.pdf', 'application/pdf');
    const { files, section } = await open(attachmentsServer([existing]));
    expect(within(section).getByText('Uploaded: old-referral.pdf')).toBeTruthy();
    pick(REFERRAL_TYPE_ID, new File(['%PDF-1.4\n%%EOF\n'], 'new-referral.pdf', { type: 'application/pdf' }));
    expect(await within(section).findByText('new-referral.pdf replaced the earlier file.')).toBeTruthy();
    expect(files.uploads[0]).toMatchObject({ method: 'PUT', path: `${BASE}/${existing.id}` });
    expect(await within(section).findByText('Uploaded: new-referral.pdf')).toBeTruthy();
  });

  it('should drop the upload query parameter after an upload', async () => {
    const { app, section } = await open(attachmentsServer(), { url: `${PAGE}?upload=referral` });
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Documents'));
    pick(REFERRAL_TYPE_ID, PDF);
    await within(section).findByText('referral.pdf was added.');
    await waitFor(() => expect(location(app)).toBe(PAGE));
  });

  it('should show a photo in the viewer with zoom buttons, a PDF with open and download links, and their captions', async () => {
    const photo = attachmentFixture('knee-referral.jpg', 'image/jpeg');
    const pdf = attachmentFixture('blood-test.pdf', 'application/pdf', {
      documentType: { title: 'Blood test', description: 'Kidney function within 3 months.' },
      documentTypeId: null,
    });
    const { app, section } = await open(attachmentsServer([photo, pdf]));
    fireEvent.click(within(section).getByRole('button', { name: 'View knee-referral.jpg' }));
    const viewer = await screen.findByRole('dialog', { name: 'Documents' });
    expect(within(viewer).getByText('Document 1 of 2')).toBeTruthy();
    const image = within(viewer).getByRole('img', { name: 'Referral: knee-referral.jpg' });
    expect(image.getAttribute('src')).toBe(`${app.server.url}${photo.viewUrl}`);
    expect(image.style.maxHeight).toBe('600px');
    for (const name of ['Zoom in', 'Zoom out', 'Reset zoom']) expect(within(viewer).getByRole('button', { name })).toBeTruthy();
    expect(within(viewer).getByRole('group', { name: 'Referral: knee-referral.jpg' }).getAttribute('tabindex')).toBe('0');
    expect(within(viewer).getByText('The referral from your doctor.')).toBeTruthy();

    fireEvent.click(within(viewer).getByRole('button', { name: 'Next document' }));
    expect(within(viewer).getByText('Document 2 of 2')).toBeTruthy();
    expect(within(viewer).getByRole('link', { name: 'Open blood-test.pdf' }).getAttribute('href')).toBe(`${app.server.url}${pdf.viewUrl}`);
    const download = within(viewer).getByRole('link', { name: 'Download blood-test.pdf' });
    expect(download.getAttribute('href')).toBe(`${app.server.url}${pdf.downloadUrl}`);
    expect(download.getAttribute('download')).toBe('blood-test.pdf');
    expect(within(viewer).getByText('Blood test')).toBeTruthy();
    fireEvent.click(within(viewer).getByRole('button', { name: 'Next document' }));
    expect(within(viewer).getByText('Document 1 of 2')).toBeTruthy();
    fireEvent.click(within(viewer).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Documents' })).toBeNull());
  });

  it("should show a document's information", async () => {
    const photo = attachmentFixture('knee-referral.jpg', 'image/jpeg', { referralDate: '2026-11-02', referringDoctor: 'Dr Ana Petrova' });
    const { section } = await open(attachmentsServer([photo]));
    fireEvent.click(within(section).getByRole('button', { name: 'About knee-referral.jpg' }));
    const info = await screen.findByRole('dialog', { name: 'About this document' });
    expect(within(info).getByText('knee-referral.jpg')).toBeTruthy();
    expect(within(info).getByText('The referral from your doctor.')).toBeTruthy();
    expect(within(info).getByText('2026-11-02')).toBeTruthy();
    expect(within(info).getByText('Dr Ana Petrova')).toBeTruthy();
  });

  it('should let staff delete a document after a confirmation, and keep it on No', async () => {
    const photo = attachmentFixture('knee-referral.jpg', 'image/jpeg');
    const { files, section } = await open(attachmentsServer([photo]), { staff: true });
    expect(await within(section).findByText(/You are signed in as staff/)).toBeTruthy();
    fireEvent.click(await within(section).findByRole('button', { name: 'Delete knee-referral.jpg' }));
    let confirm = await screen.findByRole('alertdialog', { name: 'Delete this document?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Keep it' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(files.deletes).toEqual([]);

    fireEvent.click(within(section).getByRole('button', { name: 'Delete knee-referral.jpg' }));
    confirm = await screen.findByRole('alertdialog', { name: 'Delete this document?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await within(section).findByText('knee-referral.jpg was deleted.')).toBeTruthy();
    expect(files.deletes).toEqual([photo.id]);
    await waitFor(() => expect(referralSlot(section).textContent).toContain('Not uploaded yet'));
  });

  it('should send the referral date and the referring doctor the patient gave with the referral', async () => {
    const { files, section } = await open();
    const slot = referralSlot(section);
    expect(within(slot).queryByLabelText('Date on the referral (optional)')).toBeNull();
    fireEvent.click(within(slot).getByRole('button', { name: "Add the referral's date and doctor (optional)" }));
    fireEvent.change(within(slot).getByLabelText('Date on the referral (optional)'), { target: { value: '2026-10-30' } });
    fireEvent.change(within(slot).getByLabelText('Referring doctor (optional)'), { target: { value: 'Dr Ana Petrova' } });
    pick(REFERRAL_TYPE_ID, PDF);
    await within(section).findByText('referral.pdf was added.');
    const body = files.uploads[0]!.body;
    expect(body).toContain('name="referralDate"\r\n\r\n2026-10-30');
    expect(body).toContain('name="referringDoctor"\r\n\r\nDr Ana Petrova');
    expect(body.indexOf('referringDoctor')).toBeLessThan(body.indexOf('filename='));
  });

  it("should show the server's referral-date warning, and let staff accept the date", async () => {
    const old = attachmentFixture('old-referral.pdf', 'application/pdf', {
      referralDate: '2025-01-10',
      referralWarning: 'EXPIRED',
      referralWarningMessage: 'This referral is older than 12 months. Please ask your doctor for a new one.',
    });
    const patientView = await open(attachmentsServer([old]));
    expect(within(patientView.section).getByText(/older than 12 months/)).toBeTruthy();
    expect(within(patientView.section).queryByRole('button', { name: /Accept the date/ })).toBeNull();
    patientView.app.unmount();

    const files = attachmentsServer([old]);
    const { section } = await open(files, { staff: true });
    fireEvent.click(await within(section).findByRole('button', { name: 'Accept the date of old-referral.pdf' }));
    await waitFor(() => expect(within(section).queryByText(/older than 12 months/)).toBeNull());
    expect(files.accepted).toEqual([old.id]);
  });
});
