import { makeAutoObservable } from 'mobx';
import type { AppointmentReplyView } from '@contract/api/appointment-reply';
import type { FeatureStoreContext } from '../../stores/root-store';
import { SignedLinkPage } from '../../platform/signed-link-page';
import { createAppointmentReplyApi, type AppointmentReplyApi } from './appointment-reply-api';

/**
 * The reminder's answer page, /appointment-reply?token=…&answer=confirm|cancel
 * (docs/rules/reminders.md#replies): the appointment the link names, the question the mail's
 * button chose, and the answers (src-web/platform/signed-link-page.ts: nothing changes until a press).
 */
export type ReplyAnswer = 'confirm' | 'cancel';

export class AppointmentReplyStore {
  readonly page: SignedLinkPage<AppointmentReplyView, 'confirmed' | 'cancelled'>;
  /** The answer the page asks about first: the mail's button chose it; the patient may switch. */
  answer: ReplyAnswer = 'confirm';
  private readonly api: AppointmentReplyApi;

  constructor(deps: { api: AppointmentReplyApi }) {
    this.api = deps.api;
    this.page = new SignedLinkPage(deps.api.view);
    makeAutoObservable<this, 'api'>(this, { api: false, page: false });
  }

  open(token: string | null, answer: string | null): Promise<void> {
    this.answer = answer === 'cancel' ? 'cancel' : 'confirm';
    return this.page.open(token);
  }

  /** Switches the question without asking the server ("I cannot come" from the confirm question, and back). */
  choose(answer: ReplyAnswer): void {
    this.answer = answer;
    this.page.clearOutcome();
  }

  send(answer: ReplyAnswer): Promise<void> {
    return answer === 'confirm' ? this.page.press(this.api.confirm, 'confirmed') : this.page.press(this.api.cancel, 'cancelled');
  }
}

export function appointmentReplyStoreOf({ client }: FeatureStoreContext): AppointmentReplyStore {
  return new AppointmentReplyStore({ api: createAppointmentReplyApi(client) });
}
