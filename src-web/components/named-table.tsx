import type { ComponentProps } from 'react';

/**
 * antd's table element named by the heading above it (antd passes no aria props of its own):
 * `components={{ table: namedTable(headingId) }}`. Made once per heading, outside render, so
 * antd does not remount the table on every render.
 */
export function namedTable(headingId: string) {
  return function NamedTable(props: ComponentProps<'table'>) {
    return <table {...props} aria-labelledby={headingId} />;
  };
}
