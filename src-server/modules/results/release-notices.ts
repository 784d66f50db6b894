import { resultPagePath } from '@contract/api/results';
import type { Database } from '../../db/connection';
import type { Clock } from '../../platform/clock';
import { createOutboxRepository } from '../../platform/outbox/outbox-repository';
import { createResultsRepository } from './repository';
import { afterVisitQuestionnairesLink, mailContext, resultsReadyMail } from '../notifications/public';

/**
 * The results e-mail (docs/rules/results.md#results-e-mail): once a report's release time has
 * come, its patient gets one e-mail with the link to /appointments/{key}/result, and the link to
 * the after-visit questionnaires still due (pain score after, feedback). The mail holds no
 * finding, date of birth or code: only which exam, and that signing in needs both.
 */

export const RESULTS_READY_KIND = 'results_ready';
/** Reports notified per sweep; the next sweep takes the rest. */
const BATCH = 100;

export interface ReleaseNoticesDeps {
  db: Database;
  clock: Clock;
  publicUrl: string;
  providerName: () => Promise<string>;
}

export function createReleaseNotices(deps: ReleaseNoticesDeps) {
  const { db, clock } = deps;
  const outbox = createOutboxRepository(db);
  const results = createResultsRepository(db);

  return {
    /** Queues the e-mails of reports released by now and not yet notified; answers how many. */
    async sweep(): Promise<number> {
      const now = clock.now();
      return db.transaction(async (tx) => {
        // skip locked: two servers sweeping at once never mail one report twice.
        const due = await results.dueReleaseNotices(now, BATCH, tx);
        const context = due.length === 0 ? null : await mailContext(tx, deps.publicUrl);
        for (const notice of due) {
          if (context !== null && notice.email !== null && notice.email.includes('@')) {
            const resultPath = resultPagePath(notice.booking_key);
            const questionnaires = await afterVisitQuestionnairesLink(
              tx,
              { bookingKey: notice.booking_key, startsAt: notice.starts_at, resultPath },
              now,
              deps.publicUrl,
            );
            const mail = await resultsReadyMail(
              {
                firstName: notice.first_name,
                examName: notice.exam_name,
                startsAt: notice.starts_at,
                timeZone: notice.time_zone,
                link: `${deps.publicUrl}${resultPath}`,
                questionnaires,
              },
              context,
            );
            await outbox.enqueue({ kind: RESULTS_READY_KIND, recipient: notice.email, ...mail }, now, tx);
          }
          await results.markReleaseNotified(notice.id, now, tx);
        }
        return due.length;
      });
    },
  };
}

export type ReleaseNotices = ReturnType<typeof createReleaseNotices>;
