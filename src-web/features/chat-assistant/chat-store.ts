import { makeAutoObservable } from 'mobx';
import {
  PATIENT_TITLES,
  type BookingRequestCreate,
  type BookingRequestCreateResponse,
  type Catalogue,
  type ClinicWithDistance,
  type Exam,
} from '@contract/api/booking';
import { CALLBACK_WINDOWS, type CallbackWindow } from '@contract/api/callbacks';
import type { ExamSearch } from '@contract/search/exam-search';
import { ApiError } from '../../api/client';
import { CHAT_CLINIC_CHOICES, CHAT_EXAM_MATCHES, CHAT_OPEN_DELAY_MS } from './chat-constants';
import {
  CHANGEABLE_STEPS,
  CONTACT_FIELDS,
  type ChangeableStep,
  type ChatLine,
  type Choice,
  type ContactField,
  type ReferralAnswer,
  type Say,
} from './chat-lines';
import { ChatUploadQueue, type QueuedFile } from './chat-upload-queue';
import { chatRequestBody } from './chat-request';
import { acceptedFile, contactProblem, matchClinics, matchTimes, normaliseContact, pickOffered } from './chat-words';

/** What the conversation talks to: the booking's own API calls, injected so tests run without a browser. */
export interface ChatDeps {
  catalogue(): Promise<Catalogue>;
  /** The booking's exam search over the catalogue (src-contract/search/exam-search.ts). */
  searchFor(catalogue: Catalogue): Promise<ExamSearch>;
  clinics(examSlug: string): Promise<ClinicWithDistance[]>;
  /** A temporary key (POST /api/questionnaires/booking-keys) the referral is uploaded under. */
  newBookingKey(): Promise<string>;
  /** The REFERRAL document type the exam asks for under that key, or null (sent untyped). */
  referralTypeId(bookingKey: string, examSlug: string): Promise<string | null>;
  upload(bookingKey: string, file: File, documentTypeId: string | null, onProgress: (percent: number) => void): Promise<void>;
  createRequest(body: BookingRequestCreate, idempotencyKey: string): Promise<BookingRequestCreateResponse>;
  uuid(): string;
  /** Today's date (YYYY-MM-DD) where the patient is: a date of birth after it is refused. */
  today(): string;
}

export type ChatStep = 'opening' | 'exam' | 'clinic' | 'times' | 'referral' | 'contact' | 'summary' | 'sending' | 'done';

/**
 * The built-in chat assistant's conversation (docs/rules/chat.md#the-conversation): the exam in
 * the patient's words, a clinic, times, the referral, the contact, a summary; then a real
 * booking request (channel 'chat'). Every answer is echoed; a bad one gets its message and the
 * question again.
 */
export class ChatStore {
  lines: ChatLine[] = [];
  choices: Choice[] = [];
  step: ChatStep = 'opening';
  typing = false;
  /** The request's booking key once sent (its page is linked). */
  sentKey: string | null = null;

  exam: Exam | null = null;
  clinic: { slug: string; name: string } | null = null;
  times: CallbackWindow[] = [];
  referral: ReferralAnswer | null = null;
  contact: Partial<Record<ContactField, string>> = {};
  contactField: ContactField = 'title';
  /** The exam matches offered last (typing a number or a name picks one). */
  private offeredExams: Exam[] = [];
  private clinicsOffered: ClinicWithDistance[] = [];
  /** A step changed from the summary goes back to the summary when done. */
  private backToSummary = false;
  private bookingKey: string | null = null;
  private idempotencyKey: string | null = null;
  private lineCounter = 0;
  private openTimer: ReturnType<typeof setTimeout> | null = null;
  private searchIndex: Promise<{ catalogue: Catalogue; search: ExamSearch }> | null = null;
  readonly uploads: ChatUploadQueue;

  constructor(private readonly deps: ChatDeps) {
    this.uploads = new ChatUploadQueue({
      send: (file, onProgress) => this.sendFile(file, onProgress),
      onBatchDone: (files) => this.uploadsDone(files),
    });
    makeAutoObservable<this, 'deps' | 'openTimer' | 'searchIndex' | 'lineCounter'>(this, {
      deps: false,
      openTimer: false,
      searchIndex: false,
      lineCounter: false,
      uploads: false,
    });
  }

  /** Opening the panel: the first question comes CHAT_OPEN_DELAY_MS later (a conversation already going just shows). */
  open(): void {
    if (this.step !== 'opening' || this.openTimer !== null) return;
    this.typing = true;
    void this.index().catch(() => undefined);
    this.openTimer = setTimeout(() => this.begin(), CHAT_OPEN_DELAY_MS);
  }

  /** The panel closed for good (the page left): nothing waits in the background. */
  dispose(): void {
    if (this.openTimer !== null) clearTimeout(this.openTimer);
    this.openTimer = null;
    this.uploads.cancel();
  }

  begin(): void {
    this.openTimer = null;
    this.typing = false;
    this.say({ key: 'greeting' });
    this.askExam();
  }

  get medicareAsked(): boolean {
    return this.exam?.medicareRequired ?? false;
  }

  /** The patient typed an answer. */
  async answer(typed: string): Promise<void> {
    const text = typed.trim();
    if (text === '' || this.step === 'opening' || this.step === 'sending') return;
    this.echo(text);
    switch (this.step) {
      case 'exam':
        return this.searchExam(text);
      case 'clinic':
        return this.typedClinic(text);
      case 'times':
        return this.typedTimes(text);
      case 'referral':
        return this.typedReferral(text);
      case 'contact':
        return this.typedContact(text);
      case 'summary':
        return this.typedSummary(text);
      case 'done':
        return;
    }
  }

  /** A quick reply: echoed as the patient's answer, then acted on. */
  async choose(choice: Choice, label: string): Promise<void> {
    if (this.step === 'sending') return;
    if (choice.kind === 'time') return this.toggleTime(choice.time);
    if (choice.kind !== 'upload') this.echo(label);
    switch (choice.kind) {
      case 'exam': {
        const exam = this.offeredExams.find((each) => each.slug === choice.slug);
        if (exam) await this.pickExam(exam);
        return;
      }
      case 'somethingElse':
        return this.askExam();
      case 'clinic':
        return this.pickClinic({ slug: choice.slug, name: choice.name });
      case 'anyClinic':
        return this.pickClinic(null);
      case 'timesDone':
        return this.timesDone();
      case 'upload':
        return;
      case 'bringIt':
      case 'noReferral':
        this.referral = choice.kind === 'bringIt' ? 'bringIt' : 'none';
        return this.afterReferral();
      case 'referralDone':
        return this.afterReferral();
      case 'title':
        return this.typedContact(choice.title);
      case 'send':
      case 'retry':
        return this.send();
      case 'change':
        this.say({ key: 'whatToChange' });
        this.choices = CHANGEABLE_STEPS.map((step) => ({ kind: 'changeStep', step }));
        return;
      case 'changeStep':
        return this.change(choice.step);
    }
  }

  // --- 1. The exam --------------------------------------------------------------------------

  private askExam(): void {
    this.step = 'exam';
    this.offeredExams = [];
    this.choices = [];
    this.say({ key: 'askExam' });
  }

  private index(): Promise<{ catalogue: Catalogue; search: ExamSearch }> {
    this.searchIndex ??= this.deps.catalogue().then(async (catalogue) => ({ catalogue, search: await this.deps.searchFor(catalogue) }));
    // A failed download is tried again with the next answer.
    this.searchIndex.catch(() => {
      this.searchIndex = null;
    });
    return this.searchIndex;
  }

  private async searchExam(text: string): Promise<void> {
    // "2" or an offered exam's name picks it; anything else is a new search.
    const picked = pickOffered(this.offeredExams, text);
    if (picked) return this.pickExam(picked);
    let found: Exam[] | null;
    try {
      found = (await this.index()).search.search(text);
    } catch {
      this.say({ key: 'catalogueFailed' });
      return;
    }
    if (found === null) return this.again({ key: 'searchEmpty' }, () => this.say({ key: 'askExam' }));
    if (found.length === 0) return this.again({ key: 'noMatch' }, () => this.say({ key: 'askExam' }));
    this.offerExams(found.slice(0, CHAT_EXAM_MATCHES));
  }

  private offerExams(exams: Exam[]): void {
    this.offeredExams = exams;
    this.say({ key: 'matches' });
    this.choices = [...exams.map((exam): Choice => ({ kind: 'exam', slug: exam.slug, name: exam.name })), { kind: 'somethingElse' }];
  }

  private async pickExam(exam: Exam): Promise<void> {
    const changed = this.exam?.slug !== exam.slug;
    this.exam = exam;
    this.offeredExams = [];
    // Another exam may not be offered at the clinic chosen before, nor ask for the Medicare number.
    if (changed) this.clinic = null;
    if (!this.medicareAsked) delete this.contact.medicareNumber;
    await this.askClinic(changed);
  }

  // --- 2. The clinic ------------------------------------------------------------------------

  private async askClinic(mustAnswer = true): Promise<void> {
    if (this.backToSummary && !mustAnswer) return this.summary();
    this.step = 'clinic';
    this.choices = [];
    const exam = this.exam as Exam;
    try {
      this.setClinics(await this.deps.clinics(exam.slug));
    } catch {
      this.setClinics([]);
      this.say({ key: 'clinicsFailed' });
    }
    this.say({ key: 'askClinic', exam: exam.name });
    this.offerClinics(this.clinicsOffered.slice(0, CHAT_CLINIC_CHOICES));
  }

  private setClinics(clinics: ClinicWithDistance[]): void {
    this.clinicsOffered = clinics;
  }

  private offerClinics(clinics: readonly ClinicWithDistance[]): void {
    this.choices = [
      ...clinics.map(({ clinic }): Choice => ({ kind: 'clinic', slug: clinic.slug, name: clinic.name, suburb: clinic.address.suburb })),
      { kind: 'anyClinic' },
    ];
  }

  private typedClinic(text: string): void {
    const found = matchClinics(this.clinicsOffered, text);
    if (found === 'any') return this.pickClinic(null);
    if (found.length === 1 && found[0]) return this.pickClinic({ slug: found[0].clinic.slug, name: found[0].clinic.name });
    if (found.length > 1) {
      this.say({ key: 'clinicSeveral' });
      return this.offerClinics(found.slice(0, CHAT_CLINIC_CHOICES));
    }
    this.say({ key: 'clinicUnknown' });
    this.say({ key: 'askClinic', exam: this.exam?.name ?? '' });
    this.offerClinics(this.clinicsOffered.slice(0, CHAT_CLINIC_CHOICES));
  }

  private pickClinic(clinic: { slug: string; name: string } | null): void {
    this.clinic = clinic;
    if (this.backToSummary) return this.summary();
    this.askTimes();
  }

  // --- 3. The times -------------------------------------------------------------------------

  private askTimes(): void {
    this.step = 'times';
    this.say({ key: 'askTimes' });
    this.offerTimes();
  }

  private offerTimes(): void {
    this.choices = [
      ...CALLBACK_WINDOWS.map((time): Choice => ({ kind: 'time', time, pressed: this.times.includes(time) })),
      { kind: 'timesDone' },
    ];
  }

  toggleTime(time: CallbackWindow): void {
    const chosen = new Set(this.times);
    if (chosen.has(time)) chosen.delete(time);
    else chosen.add(time);
    this.times = CALLBACK_WINDOWS.filter((each) => chosen.has(each));
    this.offerTimes();
  }

  private typedTimes(text: string): void {
    const times = matchTimes(text);
    if (times.length === 0) return this.again({ key: 'timesNone' }, () => this.askTimes());
    this.times = times;
    this.timesDone();
  }

  private timesDone(): void {
    if (this.times.length === 0) return this.again({ key: 'timesNone' }, () => this.askTimes());
    if (this.backToSummary) return this.summary();
    this.askReferral();
  }

  // --- 4. The referral ----------------------------------------------------------------------

  private askReferral(): void {
    this.step = 'referral';
    this.say({ key: 'askReferral' });
    this.offerReferral();
  }

  private offerReferral(): void {
    const uploaded = this.lines.some((line) => line.from === 'file' && line.file.status === 'sent');
    this.choices = uploaded
      ? [{ kind: 'upload' }, { kind: 'referralDone' }]
      : [{ kind: 'upload' }, { kind: 'bringIt' }, { kind: 'noReferral' }];
  }

  private typedReferral(text: string): void {
    const words = text.toLowerCase();
    if (/\b(no|none|don't|dont|haven't)\b/.test(words)) this.referral = 'none';
    else if (/\b(bring|day|later)\b/.test(words)) this.referral = 'bringIt';
    else if (this.referral === 'uploaded' && /\b(done|continue|next|yes|ok)\b/.test(words)) return this.afterReferral();
    else return this.again({ key: 'askReferral' }, () => this.offerReferral());
    this.afterReferral();
  }

  /** Files the patient picked: each gets its line; they go after the queue's debounce. */
  pickFiles(files: readonly File[]): void {
    if (this.step !== 'referral' || files.length === 0) return;
    const accepted = files.filter((file) => {
      if (acceptedFile(file)) return true;
      this.say({ key: 'fileType', fileName: file.name });
      return false;
    });
    for (const item of this.uploads.add(accepted)) this.push({ from: 'file', file: item });
  }

  private async sendFile(file: File, onProgress: (percent: number) => void): Promise<void> {
    try {
      const bookingKey = this.bookingKey ?? this.keepKey(await this.deps.newBookingKey());
      const typeId = await this.deps.referralTypeId(bookingKey, this.exam?.slug ?? '');
      await this.deps.upload(bookingKey, file, typeId, onProgress);
    } catch (error) {
      // The server's words (type, size, virus, too many); the client solved a captcha_required itself.
      throw new Error(error instanceof ApiError ? error.message : String(error));
    }
  }

  private keepKey(bookingKey: string): string {
    this.bookingKey = bookingKey;
    return bookingKey;
  }

  private uploadsDone(files: readonly QueuedFile[]): void {
    const sent = files.filter((file) => file.status === 'sent').length;
    if (sent > 0) this.referral = 'uploaded';
    this.say({ key: 'uploadsDone', count: sent });
    if (this.step === 'referral') this.offerReferral();
  }

  private afterReferral(): void {
    if (this.backToSummary) return this.summary();
    this.askContact(CONTACT_FIELDS[0]);
  }

  // --- 5. The contact -----------------------------------------------------------------------

  private get contactFields(): ContactField[] {
    return CONTACT_FIELDS.filter((field) => field !== 'medicareNumber' || this.medicareAsked);
  }

  private askContact(field: ContactField): void {
    this.step = 'contact';
    this.contactField = field;
    this.say({ key: 'askField', field });
    this.choices = field === 'title' ? PATIENT_TITLES.map((title): Choice => ({ kind: 'title', title })) : [];
  }

  private typedContact(text: string): void {
    const field = this.contactField;
    const value = normaliseContact(field, text);
    const problem = contactProblem(field, value, this.deps.today());
    if (problem !== null) return this.again({ key: 'problem', field: problem }, () => this.askContact(field));
    this.contact[field] = value;
    const next = this.contactFields[this.contactFields.indexOf(field) + 1];
    if (next === undefined) return this.summary();
    this.askContact(next);
  }

  // --- 6. The summary and the request -------------------------------------------------------

  private summary(): void {
    this.backToSummary = false;
    this.step = 'summary';
    this.say({ key: 'summary' });
    this.choices = [{ kind: 'send' }, { kind: 'change' }];
  }

  private typedSummary(text: string): void {
    if (/\b(send|yes|ok)\b/i.test(text)) return void this.send();
    this.say({ key: 'whatToChange' });
    this.choices = CHANGEABLE_STEPS.map((step) => ({ kind: 'changeStep', step }));
  }

  private change(step: ChangeableStep): void {
    this.backToSummary = true;
    switch (step) {
      case 'exam':
        return this.askExam();
      case 'clinic':
        void this.askClinic();
        return;
      case 'times':
        return this.askTimes();
      case 'referral':
        return this.askReferral();
      case 'contact':
        // Every detail again, then back to the summary.
        this.backToSummary = false;
        return this.askContact(CONTACT_FIELDS[0]);
    }
  }

  /** The request as the server takes it. */
  get request(): BookingRequestCreate {
    return chatRequestBody(this, this.referral === 'uploaded' ? this.bookingKey : null);
  }

  async send(): Promise<void> {
    if (this.step !== 'summary') return;
    this.step = 'sending';
    this.choices = [];
    this.say({ key: 'sending' });
    // One key for the request and its retries: a repeat never makes a second request.
    this.idempotencyKey ??= this.deps.uuid();
    try {
      const response = await this.deps.createRequest(this.request, this.idempotencyKey);
      this.sent(response.bookingKey);
    } catch (error) {
      this.failed(error);
    }
  }

  private sent(bookingKey: string): void {
    this.sentKey = bookingKey;
    this.step = 'done';
    // No reference code made from the key: the key opens the request's page (with the date of birth), so none of it is shown.
    this.say({ key: 'sent', exam: this.exam?.name ?? '' });
  }

  private failed(error: unknown): void {
    this.step = 'summary';
    if (error instanceof ApiError && error.status === 429) this.say({ key: 'tooMany' });
    else if (error instanceof ApiError && error.status === 400) {
      this.say({ key: 'server', text: error.message });
      // The request as it stands cannot be made: a detail must change, under a new key.
      this.idempotencyKey = null;
      this.choices = [{ kind: 'change' }];
      return;
    } else this.say({ key: 'failed' });
    this.choices = [{ kind: 'retry' }, { kind: 'change' }];
  }

  // --- Lines --------------------------------------------------------------------------------

  private again(problem: Say, askAgain: () => void): void {
    this.say(problem);
    askAgain();
  }

  private echo(text: string): void {
    this.push({ from: 'patient', text });
  }

  private say(say: Say): void {
    this.push({ from: 'assistant', say });
  }

  private push(line: { from: 'patient'; text: string } | { from: 'assistant'; say: Say } | { from: 'file'; file: QueuedFile }): void {
    this.lines.push({ id: ++this.lineCounter, ...line } as ChatLine);
  }
}
