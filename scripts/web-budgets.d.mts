// Types of scripts/web-budgets.mjs for the TypeScript that imports it (tests/e2e/bundle-budgets.spec.ts).
import type { Page } from 'playwright-core';

export const KB: number;
export const BUDGETS: {
  homeJsGzipKb: number;
  homeCssGzipKb: number;
  flowJsGzipKb: number;
  questionnaireJsGzipKb: number;
  lighthouseMobileMin: number;
};
export const BOOKING_READY_SELECTOR: string;
export interface HomeFiles {
  js: string[];
  css: string[];
}
export function observeHome(page: Page, origin: string, dist: string): Promise<HomeFiles>;
export interface Sizes {
  homeJsGzipBytes: number;
  homeCssGzipBytes: number;
  flowJsGzipBytes: number;
  flowCssGzipBytes: number;
  questionnaireJsGzipBytes: number;
}
export function measureSizes(
  dist: string,
  home: HomeFiles,
): { sizes: Sizes; flow: { js: Set<string>; css: Set<string> }; gzipSize(file: string): number };
export function sizeResults(sizes: Sizes): { budget: string; value: string; bytes: number; limit: string; pass: boolean }[];
