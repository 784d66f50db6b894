import { observer } from 'mobx-react-lite';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import type { StaffRole } from '@contract/api/staff-access';
import { Button } from '../../components/button';
import { Page } from '../../components/page';
import { useStaffTexts } from '../../i18n/staff-texts';
import { safeInternalPath } from '../../platform/safe-url';
import { useEmbedded } from '../../shell/embedded';
import { useStores } from '../../stores/use-stores';
import { directImagesStoreOf, type DirectImagesProblem } from './direct-images-store';

/** Who may open images: referring doctors and the provider's staff (docs/rules/staff-access.md#roles). */
export const IMAGE_VIEWER_ROLES: readonly StaffRole[] = ['referrer', 'staff', 'admin'];

type Phase = 'checking' | 'sign-in' | 'signed-in';

/**
 * /image-viewer-access (docs/identity.md#the-browser): sign-in through the provider's identity provider, silent
 * first (a cached account, else the provider's own session in a hidden frame) and the popup as
 * fallback, on the person's click since browsers block popups nobody asked for; a blocked popup
 * continues as a full-page redirect. On failure: 'error check images authorization'.
 * With input (an image link, imsec) the images open once signed in: POST /api/image_viewer/direct
 * names the viewer's address and the browser goes there. Otherwise, with returnUrl
 * (a path of this site) the browser goes there once signed in.
 */
export const ImageViewerAccessPage = observer(function ImageViewerAccessPage() {
  const { staff, i18n } = useStores();
  const { t } = useTranslation();
  const ready = useStaffTexts(i18n.i18n, i18n.locale);
  const navigate = useNavigate();
  const embedded = useEmbedded();
  const [params] = useSearchParams();
  const returnUrl = safeInternalPath(params.get('returnUrl'));
  const imageLink = params.get('input');
  const directImages = useStores().featureStore(directImagesStoreOf);
  const [phase, setPhase] = useState<Phase>(() => (staff.user === null ? 'checking' : 'signed-in'));
  const configured = staff.settings !== null;

  useEffect(() => {
    if (phase !== 'checking') return;
    if (!configured) {
      setPhase('sign-in');
      return;
    }
    let live = true;
    void staff.signInSilently({ frame: true }).then((signedIn) => live && setPhase(signedIn ? 'signed-in' : 'sign-in'));
    return () => {
      live = false;
    };
  }, [phase, configured, staff]);

  const allowed = staff.hasAnyRole(IMAGE_VIEWER_ROLES);
  const user = staff.user;
  useEffect(() => {
    if (phase === 'signed-in' && allowed && imageLink !== null && user !== null) void directImages.open(imageLink, user);
  }, [phase, allowed, imageLink, user, directImages]);
  useEffect(() => {
    if (phase === 'signed-in' && allowed && imageLink === null && returnUrl !== null)
      navigate(embedded ? `/iframe${returnUrl}` : returnUrl, { replace: true });
  }, [phase, allowed, imageLink, returnUrl, embedded, navigate]);

  if (!ready) return <p role="status">{t('message.loading')}</p>;

  const signIn = () => void staff.signIn().then((signedIn) => signedIn && setPhase('signed-in'));
  const failed = staff.problem !== null || (user !== null ? !allowed : !configured && phase !== 'checking');

  return (
    <Page title={t('staff.imageViewerAccess.title')}>
      {phase === 'checking' || staff.busy ? (
        <p role="status">{t('staff.imageViewerAccess.checking')}</p>
      ) : (
        <>
          {failed && (
            <div role="alert" className="pp-notice pp-notice-error">
              <p>{t('message.error_check_images_authorization')}</p>
              {!configured && user === null && <p>{t('staff.imageViewerAccess.notConfigured')}</p>}
            </div>
          )}
          {user !== null && allowed ? (
            imageLink === null ? (
              <p>{t('staff.imageViewerAccess.signedIn', { name: user.username })}</p>
            ) : (
              <DirectImagesState opening={directImages.opening} problem={directImages.problem} />
            )
          ) : (
            configured && (
              <>
                <p>{t('staff.imageViewerAccess.intro')}</p>
                <Button onPointerEnter={() => staff.preload()} onFocus={() => staff.preload()} onClick={signIn}>
                  {t('staff.imageViewerAccess.signIn')}
                </Button>
              </>
            )
          )}
        </>
      )}
    </Page>
  );
});

/** The image link being opened, or why it did not open. */
function DirectImagesState({ opening, problem }: { opening: boolean; problem: DirectImagesProblem | null }) {
  const { t } = useTranslation();
  if (problem === null)
    return <p role="status">{opening ? t('staff.imageViewerAccess.opening') : t('staff.imageViewerAccess.checking')}</p>;
  return (
    <div role="alert" className="pp-notice pp-notice-error">
      <p>
        {problem === 'noUrl'
          ? t('staff.imageViewerAccess.noUrl')
          : problem === 'noAccess'
            ? t('staff.imageViewerAccess.noAccess')
            : t('staff.imageViewerAccess.failed')}
      </p>
    </div>
  );
}
