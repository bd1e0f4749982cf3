import { useMergedRef } from '@mantine/hooks';
import {
  type ComponentType,
  cloneElement,
  type FocusEvent,
  type MouseEvent,
  type ReactElement,
  type Ref,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { chain } from './events';
import { later } from './later';

/** What a deferred menu or popover is given: it draws `target` as its Menu.Target or Popover.Target. */
export type OverlayProps = { opened: boolean; onChange(opened: boolean): void; target: ReactElement };

type TargetProps = {
  ref?: Ref<HTMLElement>;
  onPointerEnter?(event: unknown): void;
  onFocus?(event: FocusEvent<HTMLElement>): void;
  onClick?(event: MouseEvent<HTMLElement>): void;
};

type Props<P> = {
  /** The module of the menu or popover. */
  load(): Promise<ComponentType<P & OverlayProps>>;
  /** The button that opens it; it must take a ref. */
  target: ReactElement<TargetProps>;
  opened: boolean;
  onChange(opened: boolean): void;
  /** Whether a click on the target asks to open it; false when the target's own click does. */
  openOnClick?: boolean;
  /**
   * What the target opens, for assistive technology until the code comes (Menu.Target says so
   * after); none when the target says it itself.
   */
  popup?: 'menu';
  props: P;
};

/** The target itself when it is a control, else the first control inside it (a bell in its badge). */
function controlOf(target: HTMLElement | null): HTMLElement | null {
  if (!target || target.matches('button, a[href], input, [tabindex]')) return target;
  return target.querySelector<HTMLElement>('button, a[href], input, [tabindex]');
}

/**
 * A menu or popover whose code, Mantine's Menu or Popover with floating-ui, loads when its
 * target is first hovered, focused or clicked, not with the page: until it first opens only
 * the target is drawn. Then the target is drawn again inside the real one; if it had the
 * focus it gets it back before the overlay opens, so that closing returns the focus there.
 */
export function Deferred<P extends object>({
  load,
  target,
  opened,
  onChange,
  openOnClick = true,
  popup,
  props,
}: Props<P>) {
  const element = useRef<HTMLElement | null>(null);
  // This target's own piece of code: fetched once, again after a failure.
  const [overlay] = useState(() => later(load));
  const refocus = useRef(false);
  const [Overlay, setOverlay] = useState<ComponentType<P & OverlayProps> | null>(null);
  const [swapped, setSwapped] = useState(false);

  // Fetched on hover or focus, so that a click finds it there; drawn only when it opens, so
  // that nothing under the pointer is drawn again before then (a tooltip on the target stays).
  const warm = () => void overlay.load().catch(() => {});
  // Opening, asked by the target's click or from outside (the parent's own click handler, a
  // shortcut), draws the real one.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the piece loads once.
  useEffect(() => {
    if (!opened || Overlay) return;
    overlay.load().then(
      (component) => {
        refocus.current = element.current?.contains(document.activeElement) ?? false;
        setOverlay(() => component);
      },
      // Not there (the network is gone): it stays closed, to be asked again.
      () => onChange(false),
    );
  }, [opened]);
  useLayoutEffect(() => {
    if (!Overlay) return;
    if (refocus.current) controlOf(element.current)?.focus();
    setSwapped(true);
  }, [Overlay]);

  const own = target.props;
  const ref = useMergedRef(element, own.ref);
  if (!Overlay) {
    return cloneElement(target, {
      ref,
      ...(popup ? { 'aria-haspopup': popup, 'aria-expanded': false } : null),
      onPointerEnter: chain(own.onPointerEnter, warm),
      onFocus: chain(own.onFocus, warm),
      ...(openOnClick ? { onClick: chain(own.onClick, () => onChange(true)) } : null),
    } as TargetProps);
  }
  return (
    <Overlay
      {...props}
      target={cloneElement(target, { ref })}
      // Opened only once the target is back in place and focused: the overlay notes what had
      // the focus when it opens, to return it there.
      opened={opened && swapped}
      onChange={onChange}
    />
  );
}
