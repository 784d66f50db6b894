import type { MailWords } from './words';

/** The mails in Macedonian (words.ts holds the English and the shape). */

const shared = (history: boolean): string => (history ? 'своја радиолошка историја' : 'радиолошки резултат');

export const MK: MailWords = {
  language: 'mk',
  common: {
    dear: (name) => `Почитувани ${name},`,
    hello: (name) => (name === null ? 'Здраво,' : `Здраво ${name},`),
    at: (date, time) => `${date} во ${time}`,
    span: (date, from, to) => `${date}, од ${from} до ${to}`,
    phone: (phone) => `Телефон: ${phone}`,
    clinic: 'Клиника',
    contactHeading: 'Имате прашања?',
    contactPage: 'Контактирајте нè',
    sentBy: (provider) => `Оваа е-порака ја испрати ${provider}.`,
    automatic: 'Испратена е автоматски; одговорите не се читаат.',
  },
  confirmation: {
    subject: (provider, when, clinic, pending) =>
      `${provider}: ${pending ? 'Вашето барање за термин е примено' : 'Вашиот термин е потврден'} – ${when}, ${clinic}`,
    intro: (clinic, pending) => `Вашиот термин во ${clinic} е ${pending ? 'резервиран и чека потврда од клиниката' : 'потврден'}.`,
    staffBooked: 'Терминот за Вас го закажа нашиот тим за закажување.',
    heading: 'Вашиот термин',
    preparation: 'Подготовка:',
    walkIn: (name) => `Преглед без закажување: ${name}`,
    arrive: (minutes) => `Ве молиме дојдете ${minutes} минути пред закажаното време.`,
    allow: (minutes) => `Предвидете ${minutes} минути за подготовка.`,
    manage: 'За да го видите или промените терминот, отворете:',
    button: 'Погледнете го терминот',
    codeHeading: 'Код на резервацијата',
    codeCaption: 'Скенирајте го овој QR-код на киоскот за да се пријавите.',
    codeAlt: (code) => `QR-код на резервацијата ${code}`,
    cannotAttend: 'Ако не можете да дојдете, Ве молиме известете ја клиниката.',
    icsAttached: 'Приложена е календарска датотека (appointment.ics).',
  },
  request: {
    subject: (provider) => `${provider}: Го примивме Вашето барање за закажување`,
    intro: 'Ви благодариме. Го примивме Вашето барање за закажување за:',
    atClinic: (clinic) => `Посакувана клиника: ${clinic}`,
    next: 'Нашиот тим за закажување ќе Ве контактира за да договори термин. Дотогаш не треба ништо да правите.',
    view: 'За да го видите Вашето барање, отворете:',
    button: 'Погледнете го барањето',
  },
  cancellation: {
    subject: (provider, when) => `${provider}: Вашиот термин на ${when} е откажан`,
    intro: (clinic, when) => `Вашиот термин во ${clinic} на ${when} е откажан, како што побаравте:`,
    rebook: 'Кога ќе бидете подготвени, можете да закажете нов термин преку интернет:',
    button: 'Закажете термин',
    notYou: (phone) =>
      phone === null
        ? 'Ако не сте го откажале овој термин, Ве молиме контактирајте ја клиниката.'
        : `Ако не сте го откажале овој термин, Ве молиме јавете се во клиниката на ${phone}.`,
  },
  rescheduleRequest: {
    subject: (provider) => `${provider}: Го примивме Вашето барање за промена на терминот`,
    intro: (clinic, when) => `Го примивме Вашето барање за промена на терминот во ${clinic} на ${when}:`,
    keep: 'Вашето сегашно време останува резервирано за Вас додека клиниката не Ве контактира со ново.',
    view: 'За да го видите терминот, отворете:',
    button: 'Погледнете го терминот',
  },
  otp: {
    subject: (provider) => `${provider}: Вашиот верификациски код`,
    code: (provider, code) => `Вашиот верификациски код за ${provider} е ${code}.`,
    valid: (minutes) => `Важи ${minutes} минути и може да се употреби само еднаш.`,
    ignore: 'Ако не сте се обиделе да се најавите, можете да ја занемарите оваа е-порака. Никогаш не го споделувајте овој код со никого.',
  },
  resultsReady: {
    subject: (provider, exam) => `${provider}: Резултатите од Вашиот преглед ${exam} се подготвени`,
    intro: (exam, date) => `Наодот од Вашиот преглед ${exam} на ${date} е достапен.`,
    button: 'Погледнете ги резултатите',
    need: 'Ќе Ви треба Вашиот датум на раѓање, а ние ќе Ви испратиме верификациски код.',
    doctor: 'Наодот го има и лекарот што Ве упатил: разговарајте со него за тоа што значи за Вас.',
  },
  share: {
    subject: (provider, who, history) => `${provider}: ${who} сподели ${shared(history)} со Вас`,
    intro: (who, provider, history) => `${who} сподели ${shared(history)} со Вас преку порталот за пациенти на ${provider}.`,
    note: 'Придружна порака:',
    button: 'Отворете ги споделените резултати',
    need: (who) => `Ќе Ви треба датумот на раѓање на ${who}, а ние ќе испратиме верификациски код на оваа адреса.`,
    until: (date, who) => `Врската важи до ${date}, освен ако ${who} не ја повлече порано.`,
    unknown: (who) => `Ако не го познавате лицето ${who}, можете да ја занемарите оваа е-порака.`,
  },
  referrer: {
    subject: (provider, patient, exam) => `${provider}: Наодот за ${patient} е подготвен (${exam})`,
    intro: (patient, exam, date, accession) =>
      `Наодот од прегледот ${exam} на пациентот ${patient} од ${date} (пристапен број ${accession}) е подготвен.`,
    button: 'Отворете го наодот и снимките',
    private: 'Врската е само за Вас и важи 30 дена. Секое отворање се евидентира.',
  },
};
