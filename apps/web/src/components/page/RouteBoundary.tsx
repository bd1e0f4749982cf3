import { Component, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { RouteError } from './RouteError';

type Props = { children: ReactNode; inPage?: boolean };
type State = { error: unknown; failedAt: string | null };

/**
 * Catches what a route's screen throws while it draws and shows RouteError in its place
 * (`inPage`: inside the chrome, which stays). Leaving the address that failed tries again:
 * the next route draws afresh.
 */
class Boundary extends Component<Props & { pathname: string }, State> {
  override state: State = { error: null, failedAt: null };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error: error ?? new Error('Unknown error') };
  }

  static getDerivedStateFromProps(props: { pathname: string }, state: State): Partial<State> | null {
    if (state.error === null) return null;
    if (state.failedAt === null) return { failedAt: props.pathname };
    return state.failedAt === props.pathname ? null : { error: null, failedAt: null };
  }

  override render() {
    const { error } = this.state;
    if (error !== null) return <RouteError error={error} inPage={this.props.inPage} />;
    return this.props.children;
  }
}

/** Every route has its error boundary: a screen that fails shows the message, never a blank page. */
export function RouteBoundary(props: Props) {
  return <Boundary {...props} pathname={useLocation().pathname} />;
}
