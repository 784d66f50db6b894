import { useEffect, useState } from 'react';

// The QR encoder is loaded with the first code shown: only the pages that show one pay for it.
type ToSvg = (text: string) => Promise<string>;
let encoder: Promise<ToSvg> | null = null;

function loadEncoder(): Promise<ToSvg> {
  encoder ??= import('qrcode').then(
    (module) => (text: string) =>
      module.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 2, color: { dark: '#000000', light: '#ffffff' } }),
  );
  return encoder;
}

/** An SVG's data address: an <img> of it runs nothing inside it, unlike inline markup. */
function svgSource(svg: string): string {
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

interface QrCodeProps {
  /** What the code says, e.g. an enrollment code or a booking's address. */
  text: string;
  /** The image's text alternative: what the code is for. */
  label: string;
  /** Width and height in CSS pixels (the code is square). */
  size: number;
  className?: string;
}

/** A QR code drawn in the browser, black on white with its quiet zone, so phones and kiosk cameras read it. */
export function QrCode({ text, label, size, className }: QrCodeProps) {
  const [drawn, setDrawn] = useState<{ text: string; src: string } | null>(null);
  useEffect(() => {
    let live = true;
    void loadEncoder()
      .then((toSvg) => toSvg(text))
      .then((svg) => live && setDrawn({ text, src: svgSource(svg) }));
    return () => {
      live = false;
    };
  }, [text]);
  if (drawn?.text !== text)
    return <span className={className} style={{ display: 'inline-block', width: size, height: size }} aria-hidden="true" />;
  return <img className={className} src={drawn.src} alt={label} width={size} height={size} />;
}
