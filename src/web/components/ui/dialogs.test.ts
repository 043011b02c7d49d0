import { describe, expect, it } from 'vitest';
import { buttonClass } from './button';
import { DIALOG_ICON_COLOURS, dialogTheme } from './dialogs';

const classes = (value: string | readonly string[] | undefined) =>
  (Array.isArray(value) ? value.join(' ') : String(value ?? '')).split(/\s+/);

describe('the SweetAlert2 dialogs wear the product look', () => {
  it("draws no buttons of its own: the action and Cancel are the product's buttons, Cancel first", () => {
    const theme = dialogTheme();
    expect(theme.buttonsStyling).toBe(false);
    expect(theme.reverseButtons).toBe(true);
    expect(theme.customClass).toMatchObject({
      confirmButton: buttonClass('primary'),
      cancelButton: buttonClass('secondary'),
    });
    expect(dialogTheme('danger').customClass).toMatchObject({ confirmButton: buttonClass('danger') });
    expect(classes(buttonClass('primary'))).toContain('bg-brand-600');
    expect(classes(buttonClass('danger'))).toContain('bg-red-600');
  });

  it('a white rounded-2xl panel (1rem) in the app font, slate type, an indigo timer bar', () => {
    const custom = dialogTheme().customClass;
    if (!custom || typeof custom === 'string') throw new Error('no customClass');
    const popup = classes(custom.popup);
    expect(popup).toEqual(
      expect.arrayContaining([
        'font-sans',
        'shadow-xl',
        '[--swal2-border-radius:1rem]',
        '[--swal2-background:#fff]',
        '[--swal2-timer-progress-bar-background:var(--color-brand-600)]',
      ]),
    );
    expect(classes(custom.title)).toEqual(expect.arrayContaining(['font-bold!', 'text-slate-900!']));
    expect(classes(custom.htmlContainer)).toContain('text-slate-600!');
  });

  it("colours the icons from the product's palette, not SweetAlert2's pastel ones", () => {
    expect(DIALOG_ICON_COLOURS).toEqual({ success: '#059669', error: '#dc2626', warning: '#d97706' });
  });
});
