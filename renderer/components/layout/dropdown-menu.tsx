import { useEffect, useId, useRef, useState, type ReactNode } from 'react';

/**
 * A button that shows or hides a short list of choices, with Bootstrap's dropdown classes.
 * Written out rather than react-bootstrap's Dropdown, whose positioning engine (Popper) and
 * menu code were 14 KB gzipped of every signed-in page for menus of one or two items.
 * Escape or a click elsewhere closes it (Escape puts focus back on the button); so does
 * choosing, through the `close` given to `children`.
 */
export function DropdownMenu({
  label,
  buttonClassName,
  ariaLabel,
  className = '',
  children,
}: {
  label: ReactNode;
  buttonClassName: string;
  ariaLabel?: string;
  className?: string;
  children: (close: () => void) => ReactNode;
}) {
  const [isOpen, setIsOpen] = useState(false);
  const menuId = useId();
  const containerRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!isOpen) return undefined;
    const closeOnOutsideClick = (event: MouseEvent) => {
      if (!containerRef.current?.contains(event.target as Node)) setIsOpen(false);
    };
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setIsOpen(false);
      buttonRef.current?.focus();
    };
    document.addEventListener('click', closeOnOutsideClick);
    document.addEventListener('keydown', closeOnEscape);
    return () => {
      document.removeEventListener('click', closeOnOutsideClick);
      document.removeEventListener('keydown', closeOnEscape);
    };
  }, [isOpen]);

  return (
    <div className={`dropdown ${className}`} ref={containerRef}>
      <button
        ref={buttonRef}
        type="button"
        className={`${buttonClassName} dropdown-toggle${isOpen ? ' show' : ''}`}
        aria-label={ariaLabel}
        aria-expanded={isOpen}
        aria-controls={menuId}
        onClick={() => setIsOpen((value) => !value)}
      >
        {label}
      </button>
      {/* data-bs-popper="static": Bootstrap's own CSS places an end-aligned menu without Popper. */}
      <div
        id={menuId}
        className={`dropdown-menu dropdown-menu-end${isOpen ? ' show' : ''}`}
        data-bs-popper="static"
        hidden={!isOpen}
      >
        {children(() => setIsOpen(false))}
      </div>
    </div>
  );
}
