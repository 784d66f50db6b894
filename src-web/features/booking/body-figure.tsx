import { observer } from 'mobx-react-lite';
import type { CSSProperties, KeyboardEvent, ReactNode } from 'react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useStores } from '../../stores/use-stores';

/** The shapes of each body part on a 200 x 440 front view. Whole body is the silhouette. */
const PART_SHAPES: Record<string, ReactNode> = {
  head: <circle cx="100" cy="38" r="26" />,
  neck: <rect x="90" y="62" width="20" height="18" rx="4" />,
  shoulder: (
    <>
      <circle cx="62" cy="94" r="13" />
      <circle cx="138" cy="94" r="13" />
    </>
  ),
  chest: <rect x="74" y="84" width="52" height="40" rx="10" />,
  breast: (
    <>
      <circle cx="86" cy="132" r="9" />
      <circle cx="114" cy="132" r="9" />
    </>
  ),
  heart: <circle cx="110" cy="104" r="8" />,
  abdomen: <rect x="76" y="146" width="48" height="38" rx="8" />,
  spine: <rect x="96" y="86" width="8" height="96" rx="3" />,
  pelvis: <rect x="74" y="188" width="52" height="28" rx="8" />,
  hip: (
    <>
      <circle cx="74" cy="214" r="9" />
      <circle cx="126" cy="214" r="9" />
    </>
  ),
  'hand-wrist': (
    <>
      <circle cx="38" cy="238" r="11" />
      <circle cx="162" cy="238" r="11" />
    </>
  ),
  knee: (
    <>
      <circle cx="84" cy="318" r="11" />
      <circle cx="116" cy="318" r="11" />
    </>
  ),
  'ankle-foot': (
    <>
      <ellipse cx="82" cy="414" rx="12" ry="9" />
      <ellipse cx="118" cy="414" rx="12" ry="9" />
    </>
  ),
};

/** Drawing order: large parts first so small ones (heart, spine) stay on top and clickable. */
const ORDER = [
  'whole-body',
  'chest',
  'abdomen',
  'pelvis',
  'spine',
  'breast',
  'heart',
  'head',
  'neck',
  'shoulder',
  'hip',
  'hand-wrist',
  'knee',
  'ankle-foot',
];

function Silhouette() {
  return (
    <>
      <circle cx="100" cy="38" r="30" />
      <rect x="66" y="74" width="68" height="150" rx="24" />
      <rect x="38" y="82" width="24" height="160" rx="12" />
      <rect x="138" y="82" width="24" height="160" rx="12" />
      <rect x="70" y="200" width="28" height="220" rx="14" />
      <rect x="102" y="200" width="28" height="220" rx="14" />
    </>
  );
}

/**
 * The body figure of step 0: each body part is a button (name, pressed state, keyboard), drawn
 * with the provider's configured gradient, hover colour, hover transition and part styles.
 */
export const BodyFigure = observer(function BodyFigure() {
  const { booking, config } = useStores();
  const { t } = useTranslation();
  const gradientId = useId();
  const figure = config.config.bodyFigure;
  const parts = booking.examChoice.catalogue?.bodyParts ?? [];
  const available = booking.examChoice.availableBodyParts;
  const names = new Map(parts.map((part) => [part.slug, part.name]));
  const slugs = ORDER.filter((slug) => names.has(slug)).concat(
    parts.map((part) => part.slug).filter((slug) => !ORDER.includes(slug) && PART_SHAPES[slug]),
  );
  const stops = figure.gradientColors;
  const style = {
    '--pp-body-hover': figure.hoverColor,
    '--pp-body-transition': `${figure.hoverTransitionMs}ms`,
  } as CSSProperties;

  const choose = (slug: string) => {
    if (available.has(slug)) booking.examChoice.toggleBodyPart(slug);
  };
  const onKey = (event: KeyboardEvent, slug: string) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      choose(slug);
    }
  };

  return (
    <svg className="pp-body-figure" viewBox="0 0 200 440" role="group" aria-label={t('booking.exams.bodyFigure')} style={style}>
      <defs>
        <linearGradient id={gradientId} x1="0" y1="0" x2="0" y2="1">
          {stops.map((color, index) => (
            <stop key={`${color}-${index}`} offset={stops.length === 1 ? 0 : index / (stops.length - 1)} stopColor={color} />
          ))}
        </linearGradient>
      </defs>
      {slugs.map((slug) => {
        const partStyle = figure.bodyPartStyles[slug];
        const selected = booking.examChoice.bodyPartFilter === slug;
        const enabled = available.has(slug);
        const whole = slug === 'whole-body';
        return (
          <g
            key={slug}
            role="button"
            tabIndex={enabled ? 0 : -1}
            aria-label={names.get(slug)}
            aria-pressed={selected}
            aria-disabled={!enabled}
            className={`pp-body-part${selected ? ' pp-body-part-selected' : ''}${enabled ? '' : ' pp-body-part-disabled'}`}
            data-body-part={slug}
            onClick={() => choose(slug)}
            onKeyDown={(event) => onKey(event, slug)}
            fill={whole ? `url(#${gradientId})` : (partStyle?.fill ?? stops[0])}
            stroke={partStyle?.stroke ?? figure.hoverColor}
            strokeWidth={whole ? 1 : 2}
            opacity={partStyle?.opacity ?? 1}
          >
            <title>{names.get(slug)}</title>
            {whole ? <Silhouette /> : PART_SHAPES[slug]}
          </g>
        );
      })}
    </svg>
  );
});
