import type { TFunction } from 'i18next';
import type { CallbackWindow } from '@contract/api/callbacks';
import type { ChangeableStep, Choice, ContactField, Say } from './chat-lines';

/** The assistant's words in the page's language: one literal t() per key, so the catalogue check sees each. */

export function fieldQuestion(t: TFunction, field: ContactField): string {
  switch (field) {
    case 'title':
      return t('chat.say.askField.title');
    case 'firstName':
      return t('chat.say.askField.firstName');
    case 'lastName':
      return t('chat.say.askField.lastName');
    case 'dateOfBirth':
      return t('chat.say.askField.dateOfBirth');
    case 'email':
      return t('chat.say.askField.email');
    case 'contactNumber':
      return t('chat.say.askField.contactNumber');
    case 'postalCode':
      return t('chat.say.askField.postalCode');
    case 'medicareNumber':
      return t('chat.say.askField.medicareNumber');
  }
}

function fieldProblem(t: TFunction, field: ContactField | 'dateOfBirthFuture'): string {
  switch (field) {
    case 'title':
      return t('chat.say.problem.title');
    case 'firstName':
      return t('chat.say.problem.firstName');
    case 'lastName':
      return t('chat.say.problem.lastName');
    case 'dateOfBirth':
      return t('chat.say.problem.dateOfBirth');
    case 'dateOfBirthFuture':
      return t('chat.say.problem.dateOfBirthFuture');
    case 'email':
      return t('chat.say.problem.email');
    case 'contactNumber':
      return t('chat.say.problem.contactNumber');
    case 'postalCode':
      return t('chat.say.problem.postalCode');
    case 'medicareNumber':
      return t('chat.say.problem.medicareNumber');
  }
}

export function timeLabel(t: TFunction, time: CallbackWindow): string {
  switch (time) {
    case 'weekdayMorning':
      return t('chat.time.weekdayMorning');
    case 'weekdayAfternoon':
      return t('chat.time.weekdayAfternoon');
    case 'saturdayMorning':
      return t('chat.time.saturdayMorning');
    case 'anyTime':
      return t('chat.time.anyTime');
  }
}

function stepLabel(t: TFunction, step: ChangeableStep): string {
  switch (step) {
    case 'exam':
      return t('chat.choice.step.exam');
    case 'clinic':
      return t('chat.choice.step.clinic');
    case 'times':
      return t('chat.choice.step.times');
    case 'referral':
      return t('chat.choice.step.referral');
    case 'contact':
      return t('chat.choice.step.contact');
  }
}

export function choiceLabel(t: TFunction, choice: Choice): string {
  switch (choice.kind) {
    case 'exam':
      return choice.name;
    case 'clinic':
      return choice.suburb === '' || choice.name.includes(choice.suburb) ? choice.name : `${choice.name}, ${choice.suburb}`;
    case 'title':
      return choice.title;
    case 'time':
      return timeLabel(t, choice.time);
    case 'changeStep':
      return stepLabel(t, choice.step);
    case 'somethingElse':
      return t('chat.choice.somethingElse');
    case 'anyClinic':
      return t('chat.choice.anyClinic');
    case 'timesDone':
      return t('chat.choice.timesDone');
    case 'upload':
      return t('chat.choice.upload');
    case 'bringIt':
      return t('chat.choice.bringIt');
    case 'noReferral':
      return t('chat.choice.noReferral');
    case 'referralDone':
      return t('chat.choice.referralDone');
    case 'send':
      return t('chat.choice.send');
    case 'change':
      return t('chat.choice.change');
    case 'retry':
      return t('chat.choice.retry');
  }
}

export function sayText(t: TFunction, say: Say): string {
  switch (say.key) {
    case 'greeting':
      return t('chat.say.greeting');
    case 'askExam':
      return t('chat.say.askExam');
    case 'searchEmpty':
      return t('chat.say.searchEmpty');
    case 'noMatch':
      return t('chat.say.noMatch');
    case 'catalogueFailed':
      return t('chat.say.catalogueFailed');
    case 'matches':
      return t('chat.say.matches');
    case 'askClinic':
      return t('chat.say.askClinic', { exam: say.exam });
    case 'clinicsFailed':
      return t('chat.say.clinicsFailed');
    case 'clinicUnknown':
      return t('chat.say.clinicUnknown');
    case 'clinicSeveral':
      return t('chat.say.clinicSeveral');
    case 'askTimes':
      return t('chat.say.askTimes');
    case 'timesNone':
      return t('chat.say.timesNone');
    case 'askReferral':
      return t('chat.say.askReferral');
    case 'fileType':
      return t('chat.say.fileType', { fileName: say.fileName });
    case 'uploadsDone':
      return say.count === 0 ? t('chat.say.uploadsNone') : t('chat.say.uploadsDone', { count: say.count });
    case 'askField':
      return fieldQuestion(t, say.field);
    case 'problem':
      return fieldProblem(t, say.field);
    case 'summary':
      return t('chat.say.summary');
    case 'whatToChange':
      return t('chat.say.whatToChange');
    case 'sending':
      return t('chat.say.sending');
    case 'sent':
      return t('chat.say.sent', { exam: say.exam });
    case 'tooMany':
      return t('chat.say.tooMany');
    case 'failed':
      return t('chat.say.failed');
    case 'server':
      return say.text;
  }
}
