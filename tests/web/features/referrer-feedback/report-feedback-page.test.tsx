import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, type RouteHandler } from '../../helpers/api-server';
import { renderApp } from '../../helpers/render-app';
import { testConfig } from '../../helpers/test-config';

// The feedback pages rendered through the real app (router, stores, lazy texts) against a local
// HTTP server answering the feedback API as the real one does.

const enabled = testConfig({ app: { referrerReportQualityFeedbackEnabled: true, referrerReportQualityFeedbackRedirectUrl: '/about' } });

function feedbackServer(answer: 'alreadyProvided' | 'refused') {
  const calls: string[] = [];
  const routes: Record<string, RouteHandler> = {
    'GET /api/image_viewer_link/questionnaires': (request, response) => {
      calls.push(request.url ?? '');
      if (answer === 'refused') return json(response, 403, { code: 'forbidden', message: 'This feedback link is not valid.' });
      json(response, 200, { alreadyProvided: true, questionnaire: null });
    },
  };
  return { routes, calls };
}

const ALREADY_PROVIDED = 'Feedback already provided for this report. Thank you.';

/** The page at `url`, feedback enabled, for a report that has its feedback already. */
async function openAlreadyProvided(url: string) {
  const fake = feedbackServer('alreadyProvided');
  await renderApp(url, { config: enabled, routes: fake.routes });
  await screen.findByText(ALREADY_PROVIDED);
  return fake;
}

describe('report feedback page', () => {
  it('should show the error without asking the server when feedback is switched off', async () => {
    const fake = feedbackServer('alreadyProvided');
    await renderApp('/referrer/report-feedback?imsec=v1.k1.a.b', { routes: fake.routes });
    expect((await screen.findByRole('alert')).textContent).toMatch(/^Referrer feedback error/);
    expect(fake.calls).toEqual([]);
  });

  it("should say 'No valid credentials available' without imsec or accession", async () => {
    const fake = feedbackServer('alreadyProvided');
    await renderApp('/referrer/report-feedback', { config: enabled, routes: fake.routes });
    expect((await screen.findByRole('alert')).textContent).toBe('No valid credentials available');
    expect(fake.calls).toEqual([]);
  });

  it('should say feedback was already provided, asking with the imsec', async () => {
    const fake = await openAlreadyProvided('/referrer/report-feedback?imsec=v1.k1.a.b');
    expect(screen.getByText(ALREADY_PROVIDED)).toBeTruthy();
    expect(fake.calls).toEqual(['/api/image_viewer_link/questionnaires?imsec=v1.k1.a.b']);
    expect(screen.getByRole('link', { name: 'Questions about report feedback' }).getAttribute('href')).toBe(
      '/referrer/report-feedback/faq',
    );
  });

  it('should lead back to the quick report it came from (its archive, and the list mark), never to an address from the query', async () => {
    await openAlreadyProvided('/referrer/report-feedback?imsec=v1.k1.a.b&repositorySource=archive&return=report&from=list');
    expect(screen.getByRole('link', { name: 'Back to the report' }).getAttribute('href')).toBe(
      '/referrer/quick-report?imsec=v1.k1.a.b&repositorySource=archive&from=list',
    );
  });

  it('should offer no way back to a report when it was not opened from one', async () => {
    await openAlreadyProvided('/referrer/report-feedback?imsec=v1.k1.a.b&return=https%3A%2F%2Fevil.example');
    expect(screen.queryByRole('link', { name: 'Back to the report' })).toBeNull();
  });

  it('should show the error for a refused link', async () => {
    const fake = feedbackServer('refused');
    await renderApp('/referrer/report-feedback?accession=ACC-1', { config: enabled, routes: fake.routes });
    expect((await screen.findByRole('alert')).textContent).toMatch(/^Referrer feedback error/);
    expect(fake.calls).toEqual(['/api/image_viewer_link/questionnaires?pacsAppointmentId=ACC-1']);
  });
});

describe('report feedback FAQ page', () => {
  it("should show the FAQ's HTML, sanitised (an overlay's script never runs)", async () => {
    await renderApp('/referrer/report-feedback/faq', {
      overlay: {
        'reportFeedback.faqHtml':
          '<h2>Who reads it?</h2><p>Our radiologists.</p><img src="x" onerror="window.pwned = true"><script>window.pwned = true</script>',
      },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Report feedback: questions and answers' })).toBeTruthy();
    expect(await screen.findByRole('heading', { level: 2, name: 'Who reads it?' })).toBeTruthy();
    expect(document.querySelector('.pp-report-feedback-faq-body script')).toBeNull();
    expect(document.querySelector('.pp-report-feedback-faq-body [onerror]')).toBeNull();
    expect((window as unknown as { pwned?: boolean }).pwned).toBeUndefined();
  });
});
