import type { Ref, RefCallback } from 'react';

/** One handler that calls the element's own handler first, then ours. */
export function chain<E>(own: ((event: E) => void) | undefined, ours: (event: E) => void) {
  return (event: E) => {
    own?.(event);
    ours(event);
  };
}

/** One ref callback that fills every ref given. */
export function mergeRefs<T>(...refs: (Ref<T> | undefined)[]): RefCallback<T> {
  return (node) => {
    for (const ref of refs) {
      if (typeof ref === 'function') ref(node);
      else if (ref) ref.current = node;
    }
  };
}
