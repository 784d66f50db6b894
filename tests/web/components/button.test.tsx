import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Button, ButtonLink, buttonClassName } from '../../../src-web/components/button';

describe('Button', () => {
  it('should render a native button that does not submit a form unless asked to', async () => {
    const onSubmit = vi.fn((event: Event) => event.preventDefault());
    const onClick = vi.fn();
    render(
      <form onSubmit={(event) => onSubmit(event.nativeEvent)}>
        <Button onClick={onClick}>Back</Button>
        <Button type="submit">Book</Button>
      </form>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(onClick).toHaveBeenCalledTimes(1);
    expect(onSubmit).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: 'Book' }));
    expect(onSubmit).toHaveBeenCalledTimes(1);
  });

  it('should give each variant its look and keep the caller class', () => {
    render(
      <>
        <Button>Primary</Button>
        <Button variant="secondary">Secondary</Button>
        <Button variant="danger" block className="pp-extra">
          Danger
        </Button>
      </>,
    );
    expect(screen.getByRole('button', { name: 'Primary' }).className).toBe('pp-button');
    expect(screen.getByRole('button', { name: 'Secondary' }).className).toBe('pp-button pp-button-secondary');
    expect(screen.getByRole('button', { name: 'Danger' }).className).toBe('pp-button pp-button-danger pp-button-block pp-extra');
  });

  it('should keep a disabled button out of reach of clicks', async () => {
    const onClick = vi.fn();
    render(
      <Button disabled onClick={onClick}>
        Save
      </Button>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(onClick).not.toHaveBeenCalled();
  });
});

describe('ButtonLink', () => {
  it('should stay a link with the button look', () => {
    render(
      <ButtonLink variant="secondary" href="/files/referral.pdf" download="referral.pdf">
        Download the referral
      </ButtonLink>,
    );
    const link = screen.getByRole('link', { name: 'Download the referral' });
    expect(link.getAttribute('href')).toBe('/files/referral.pdf');
    expect(link.className).toBe(buttonClassName({ variant: 'secondary' }));
  });
});
