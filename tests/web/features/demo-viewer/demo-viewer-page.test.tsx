import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../helpers/render-app';
import { demoViewerServer, EXPIRED_TOKEN, STUDY, TOKEN } from './demo-viewer-fixtures';

const pageUrl = (token: string | null, prefix = '') =>
  `${prefix}/demo-viewer?study=${STUDY.studyInstanceUid}${token === null ? '' : `&token=${encodeURIComponent(token)}`}`;

describe('demo viewer page', () => {
  it('should show the study, a labelled button per image and the first image with its zoom buttons', async () => {
    const fake = demoViewerServer();
    await renderApp(pageUrl(TOKEN), { routes: fake.routes });
    expect(await screen.findByRole('heading', { level: 2, name: STUDY.description })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'Images' })).toBeTruthy();
    expect(screen.getByText(/not anyone's scan/)).toBeTruthy();

    const strip = within(screen.getByRole('list', { name: 'Images of this study' }));
    const buttons = strip.getAllByRole('button');
    expect(buttons.map((button) => button.textContent)).toEqual(
      STUDY.images.map((image) => `Show image ${image.index + 1}: ${image.title}`),
    );
    expect(buttons.map((button) => button.getAttribute('aria-pressed'))).toEqual(['true', 'false', 'false', 'false']);

    expect(screen.getByRole('status').textContent).toBe('Image 1 of 4: Sagittal T1 — slice 22');
    const shown = screen.getByRole('img', { name: 'Image 1 of 4: Sagittal T1 — slice 22' });
    expect(shown.getAttribute('src')).toMatch(
      new RegExp(`/api/demo-viewer/images/0\\?token=${encodeURIComponent(TOKEN).replace(/\./g, '\\.')}$`),
    );
    for (const name of ['Zoom in', 'Zoom out', 'Reset zoom', 'Previous image', 'Next image'])
      expect(screen.getByRole('button', { name })).toBeTruthy();
    // The zoom buttons come after the image, in a group over its bottom edge (never above it
    // pushing it down), and outside the image's stage, so their taps are not the image's double tap.
    const tools = screen.getByRole('group', { name: 'Zoom' });
    for (const name of ['Zoom in', 'Zoom out', 'Reset zoom']) expect(within(tools).getByRole('button', { name })).toBeTruthy();
    expect(shown.compareDocumentPosition(tools) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(tools.closest('.pp-demo-viewer-stage')).toBeNull();
  });

  it('should show the image a thumbnail button names, and step with next and previous', async () => {
    await renderApp(pageUrl(TOKEN), { routes: demoViewerServer().routes });
    await screen.findByRole('heading', { level: 2, name: STUDY.description });
    fireEvent.click(screen.getByRole('button', { name: 'Show image 3: Coronal PD fat sat — slice 23' }));
    expect(screen.getByRole('status').textContent).toBe('Image 3 of 4: Coronal PD fat sat — slice 23');
    expect(screen.getByRole('button', { name: 'Show image 3: Coronal PD fat sat — slice 23' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByRole('img', { name: 'Image 3 of 4: Coronal PD fat sat — slice 23' }).getAttribute('src')).toMatch(/images\/2\?/);
    fireEvent.click(screen.getByRole('button', { name: 'Next image' }));
    expect(screen.getByRole('status').textContent).toBe('Image 4 of 4: Axial T2 — slice 21');
    fireEvent.click(screen.getByRole('button', { name: 'Next image' }));
    expect(screen.getByRole('status').textContent).toBe('Image 1 of 4: Sagittal T1 — slice 22');
  });

  it('should say that an expired or invalid link cannot open the images, without a retry', async () => {
    await renderApp(pageUrl(EXPIRED_TOKEN), { routes: demoViewerServer().routes });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('This image link has expired or is not valid. Go back to your results and open the images again.');
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
    expect(screen.queryByRole('list', { name: 'Images of this study' })).toBeNull();
  });

  it('should say so without asking the server when the page has no link', async () => {
    const fake = demoViewerServer();
    await renderApp(pageUrl(null), { routes: fake.routes });
    expect((await screen.findByRole('alert')).textContent).toMatch(/expired or is not valid/);
    expect(fake.studyCalls).toBe(0);
  });

  it('should offer Try again when the server is unavailable, and show the study after it', async () => {
    const fake = demoViewerServer();
    fake.answer = 'unavailable';
    await renderApp(pageUrl(TOKEN), { routes: fake.routes });
    expect((await screen.findByRole('alert')).textContent).toMatch(/could not be loaded/);
    fake.answer = 'study';
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { level: 2, name: STUDY.description })).toBeTruthy();
  });

  it('should work under /iframe as well', async () => {
    await renderApp(pageUrl(TOKEN, '/iframe'), { routes: demoViewerServer().routes });
    expect(await screen.findByRole('heading', { level: 2, name: STUDY.description })).toBeTruthy();
  });
});
