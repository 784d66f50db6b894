import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../helpers/render-app';
import { bookingRoutes, holdReleaseRoutes, type RecordedBookingRequest } from './booking-fixtures';

// Wednesday 25 November 2026, 12:00 in Sydney: Monday and Tuesday of the week view have passed.
const WEDNESDAY_NOON = () => new Date('2026-11-25T01:00:00.000Z');

async function openTimes(view: 'WEEK' | 'MONTH') {
  const log: RecordedBookingRequest[] = [];
  await renderApp(`/?step=1&exams=ct-brain&clinic=parramatta&view=${view}`, {
    routes: { ...bookingRoutes(log), ...holdReleaseRoutes(log) },
    clock: WEDNESDAY_NOON,
  });
  return screen.findByRole('region', { name: 'Free times at Parramatta' });
}

describe('calendar view', () => {
  it('should show past days of the week as passed, not as full, and mark today', async () => {
    const calendar = await openTimes('WEEK');
    const days = await within(calendar).findByRole('toolbar', { name: 'Days of the week' });
    const past = within(days).getByRole('button', { name: 'Mon, 23 Nov, past' });
    expect((past as HTMLButtonElement).disabled).toBe(true);
    expect(past.textContent).not.toMatch(/free/i);
    const today = within(days).getByRole('button', { name: 'Wed, 25 Nov, today, 2 free' });
    expect(today.getAttribute('aria-current')).toBe('date');
    expect(today.textContent).toContain('Today');
    expect(within(days).queryAllByRole('button', { name: /past$/ })).toHaveLength(2);
  });

  it('should write the times in the locale habit, the same as the held time', async () => {
    const calendar = await openTimes('WEEK');
    fireEvent.click(await within(calendar).findByRole('button', { name: /today/ }));
    const morning = await within(calendar).findByRole('button', { name: /at 9:30\sam$/i });
    expect(morning.textContent).toMatch(/^9:30\sam$/i);
    expect(within(calendar).getAllByRole('button', { name: /at 2:00\spm$/i })).toHaveLength(1);
    fireEvent.click(morning);
    const held = await within(calendar).findByText(/is held for you until/);
    // "Wednesday 25 November at 9:30 am is held for you until 11:59 am": one format on one page.
    expect(held.textContent).toMatch(/9:30\sam is held for you until 10:59\sam/i);
  });

  it('should grey past days in the month and mark today', async () => {
    const calendar = await openTimes('MONTH');
    const month = await within(calendar).findByRole('table', { name: 'November 2026' });
    // The fixture frees every other day from the 1st: the 3rd is free but has passed.
    const third = await within(month).findByRole('button', { name: 'Tuesday 3 November, past' });
    expect((third as HTMLButtonElement).disabled).toBe(true);
    expect(third.classList.contains('pp-day-past')).toBe(true);
    const today = await within(month).findByRole('button', { name: 'Wednesday 25 November, today' });
    expect(today.getAttribute('aria-current')).toBe('date');
    expect((today as HTMLButtonElement).disabled).toBe(false);
  });

  it('should make the days and the times one Tab stop each, moved across with the arrow keys', async () => {
    const calendar = await openTimes('WEEK');
    const days = await within(calendar).findByRole('toolbar', { name: 'Days of the week' });
    // Today is the first day that can be chosen: the one Tab stop of the strip.
    const reachable = within(days)
      .getAllByRole('button')
      .filter((button) => button.tabIndex === 0 && !(button as HTMLButtonElement).disabled);
    expect(reachable.map((button) => button.getAttribute('aria-label'))).toEqual(['Wed, 25 Nov, today, 2 free']);
    reachable[0]?.focus();
    fireEvent.keyDown(days, { key: 'ArrowRight' });
    expect(document.activeElement?.getAttribute('aria-label')).toBe('Thu, 26 Nov, 2 free');
    fireEvent.keyDown(days, { key: 'Home' });
    // Past days cannot be chosen, so Home goes to today.
    expect(document.activeElement?.getAttribute('aria-label')).toBe('Wed, 25 Nov, today, 2 free');
    fireEvent.keyDown(days, { key: 'ArrowLeft' });
    expect(document.activeElement?.getAttribute('aria-label')).toBe('Sun, 29 Nov, 2 free');

    fireEvent.click(within(days).getByRole('button', { name: 'Thu, 26 Nov, 2 free' }));
    const times = await within(calendar).findByRole('toolbar', { name: 'Free times on Thu, 26 Nov' });
    const stops = within(times)
      .getAllByRole('button')
      .filter((button) => button.tabIndex === 0 && !(button as HTMLButtonElement).disabled);
    expect(stops).toHaveLength(1);
    fireEvent.click(within(times).getByRole('button', { name: /at 2:00\spm$/i }));
    const chosen = within(times)
      .getAllByRole('button')
      .filter((button) => button.tabIndex === 0 && !(button as HTMLButtonElement).disabled);
    expect(chosen.map((button) => button.textContent)).toEqual([expect.stringMatching(/^2:00\spm$/i)]);
  });
});
