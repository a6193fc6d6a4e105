import { setupWorker } from 'msw/browser';
import { handlers } from 'petstore-mock/msw';

/** The pet store API, answered inside the browser by the mock's handler; `handlers.reset()` restarts it. */
export const worker = setupWorker(...handlers);

/** Starts answering `/v1/...` before the app's first request; every other request goes to the network. */
export function startMocking(): Promise<unknown> {
  return worker.start({ onUnhandledFrame: 'bypass' }); // msw 2: worker.start({ onUnhandledRequest: 'bypass' })
}
