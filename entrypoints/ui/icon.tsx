/** The line icons of row and list actions, and the icon buttons that carry them. */
import type { JSX } from 'preact';

/** A 16 px line icon (no icon font: every system draws it alike). */
export function Icon({ path }: { path: string }) {
  return (
    <svg width="16" height="16" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d={path} fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" />
    </svg>
  );
}

/**
 * A row action drawn as an icon: named for screen readers (`label`), on hover (`title`, default the label) and, as a
 * visible tip on hover and keyboard focus, by `tip` (styles.css `.tip`).
 */
export function IconButton({
  icon,
  label,
  title = label,
  tip,
  testid,
  extraClass,
  pressed,
  disabled,
  onClick,
}: {
  icon: string;
  label: string;
  title?: string;
  tip: string;
  testid: string;
  extraClass?: string;
  pressed?: boolean;
  disabled?: boolean;
  onClick: JSX.MouseEventHandler<HTMLButtonElement>;
}) {
  return (
    <button
      type="button"
      class={extraClass ? `icon ${extraClass} tip` : 'icon tip'}
      data-testid={testid}
      data-tip={tip}
      aria-pressed={pressed}
      aria-label={label}
      title={title}
      disabled={disabled}
      onClick={onClick}
    >
      <Icon path={icon} />
    </button>
  );
}
