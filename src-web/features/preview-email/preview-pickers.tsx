import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Segmented from 'antd/es/segmented';
import Select from 'antd/es/select';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import type { EmailPreviewQuery } from '@contract/api/notifications';
import type { TFunction } from 'i18next';
import type { PreviewEmailStore, PreviewWidth } from './preview-email-store';

/** A mail kind's name in the page's language (one literal t() per key, so the catalogue check sees each); an unknown kind by its name. */
function templateLabel(t: TFunction, name: string): string {
  switch (name) {
    case 'booking_confirmation':
      return t('previewEmail.templates.booking_confirmation');
    case 'booking_request_received':
      return t('previewEmail.templates.booking_request_received');
    case 'appointment_cancelled':
      return t('previewEmail.templates.appointment_cancelled');
    case 'reschedule_requested':
      return t('previewEmail.templates.reschedule_requested');
    case 'appointment_reminder':
      return t('previewEmail.templates.appointment_reminder');
    case 'waitlist_offer':
      return t('previewEmail.templates.waitlist_offer');
    case 'waitlist_taken':
      return t('previewEmail.templates.waitlist_taken');
    case 'screening_approved':
      return t('previewEmail.templates.screening_approved');
    case 'screening_declined':
      return t('previewEmail.templates.screening_declined');
    case 'screening_expired':
      return t('previewEmail.templates.screening_expired');
    case 'otp_code':
      return t('previewEmail.templates.otp_code');
    case 'results_ready':
      return t('previewEmail.templates.results_ready');
    case 'result_share':
      return t('previewEmail.templates.result_share');
    case 'referrer_report_ready':
      return t('previewEmail.templates.referrer_report_ready');
    case 'callback_requested':
      return t('previewEmail.templates.callback_requested');
    default:
      return name;
  }
}

function languageLabel(t: TFunction, lang: string): string {
  switch (lang) {
    case 'en':
      return t('previewEmail.languages.en');
    case 'en-AU':
      return t('previewEmail.languages.en-AU');
    case 'en-NZ':
      return t('previewEmail.languages.en-NZ');
    case 'en-CA':
      return t('previewEmail.languages.en-CA');
    case 'mk':
      return t('previewEmail.languages.mk');
    default:
      return lang;
  }
}

/**
 * The preview's pickers (antd, inside the page's AntdScope): template, language, record, width,
 * and "send a test to me". A change of template, language or record changes the address, so a
 * preview can be shared and reloaded as the spec's /preview-email?template&lang&referenceId.
 */
export const PreviewPickers = observer(function PreviewPickers({
  store,
  navigate,
}: {
  store: PreviewEmailStore;
  navigate: (params: URLSearchParams) => void;
}) {
  const { t } = useTranslation();
  const options = store.options;
  const query = store.query;
  if (options === null || query === null) return null;
  const change = (value: Partial<EmailPreviewQuery>) => navigate(store.paramsWith(value));
  return (
    <Form layout="inline" colon={false} className="pp-preview-email-pickers" onFinish={() => void store.sendTest()}>
      <Form.Item label={t('previewEmail.template')} htmlFor="pp-preview-template">
        <Select
          id="pp-preview-template"
          className="pp-preview-email-select"
          value={query.template}
          onChange={(template: string) => change({ template })}
          showSearch={{ optionFilterProp: 'label' }}
          options={options.templates.map((entry) => ({
            value: entry.name,
            label: templateLabel(t, entry.name),
          }))}
        />
      </Form.Item>
      <Form.Item label={t('previewEmail.language')} htmlFor="pp-preview-language">
        <Select
          id="pp-preview-language"
          className="pp-preview-email-select-short"
          value={query.lang}
          onChange={(lang: EmailPreviewQuery['lang']) => change({ lang })}
          options={options.languages.map((lang) => ({ value: lang, label: languageLabel(t, lang) }))}
        />
      </Form.Item>
      <Form.Item label={t('previewEmail.reference')} htmlFor="pp-preview-reference">
        <Select
          id="pp-preview-reference"
          className="pp-preview-email-select-wide"
          value={query.referenceId === '' ? undefined : query.referenceId}
          onChange={(referenceId: string) => change({ referenceId })}
          showSearch={{ optionFilterProp: 'label' }}
          options={store.references.map((reference) => ({ value: reference.id, label: reference.label }))}
        />
      </Form.Item>
      <Form.Item label={t('previewEmail.width')}>
        <Segmented<PreviewWidth>
          value={store.width}
          onChange={(width) => store.setWidth(width)}
          options={[
            { value: 'desktop', label: t('previewEmail.desktop') },
            { value: 'phone', label: t('previewEmail.phone') },
          ]}
        />
      </Form.Item>
      <Form.Item>
        <Button type="primary" htmlType="submit" loading={store.sending} disabled={store.preview === null}>
          {store.sending ? t('previewEmail.sending') : t('previewEmail.sendTest')}
        </Button>
      </Form.Item>
    </Form>
  );
});
