/**
 * Who may reach a server of the mock, stated once for the CLI (`--host`, `--allowed-host`,
 * `--api-key`) and the code API (`startMockServer`, `startProxyServer`: `host`, `allowedHosts`,
 * `apiKey`, `apiKeys`): the interface it binds is named (an empty one binds every interface unsaid),
 * the names clients may use are host names of RFC 1123, and an interface other machines reach needs
 * a key of the user's own, as the default one is public. The code API once started on `0.0.0.0` with
 * the public key (and `--proxy` then handed its upstream key to anyone who sent it), which the CLI
 * refused with exit 2. Each rule is a sentence naming the option, in the spelling of its caller.
 */
import { HOST_NAME_RULE, isHostName } from '../../http/user-url.js';
import { MOCK_DEFAULTS } from '../core/defaults.js';
import type { LabelledApiKey } from './auth.js';

/** True for addresses only this machine can reach. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** Why `value` is no interface to bind, or `undefined`: an empty one would bind every interface unsaid. */
export function interfaceProblem(value: string): string | undefined {
  // A link-local address may name its interface (`fe80::1%eth0`) to bind; a URL takes the address without it.
  if (isHostName(value.replace(/(:.*)%[\w.-]+$/, '$1'))) return undefined;
  return `Expected an interface to bind: an IP address such as 127.0.0.1 (this machine only) or 0.0.0.0 (every interface), or a host name such as localhost.${value === '' ? '' : ` ${HOST_NAME_RULE}`}`;
}

/** Why `value` is no host name clients may reach the mock by, or `undefined`. */
export function allowedHostProblem(value: string): string | undefined {
  return isHostName(value) ? undefined : `Expected a host name such as mock.internal, without scheme, port or path. ${HOST_NAME_RULE}`;
}

/** How a caller spells the options the rules name: the CLI's flags, or the code API's fields. */
export interface ReachNames {
  readonly host: string;
  readonly allowedHosts: string;
  /** Where the user gives a key of their own. */
  readonly key: string;
  /** How the user says the public default key is meant. */
  readonly allowDefault: string;
}

const CODE_API_NAMES: ReachNames = {
  host: 'host',
  allowedHosts: 'allowedHosts',
  key: 'apiKey (or apiKeys)',
  allowDefault: 'give allowDefaultKey: true if the default is meant',
};

/** The keys a server is given, as its caller has them: what `publicKeyProblem` reads. */
export interface GivenKeys {
  /** The keys named (`--api-key` or `PETSTORE_API_KEY`, `apiKey`, `apiKeys`), a labelled one with its label; none when the default is taken unsaid. */
  readonly keys: readonly (string | LabelledApiKey)[];
  /** Whether the user said the public default key is meant (`--allow-default-key`, `allowDefaultKey: true`). */
  readonly defaultMeant: boolean;
}

/**
 * Why a server bound to `host` may not take its keys, or `undefined`: beyond loopback, no accepted key
 * may be the public default unless the user says it is meant. Its value, not where it came from, is
 * what is public: `-k petstore-dev-key` or a `.env` copied from the docs once opened the network with
 * no word. The sentence names such a key by its label, never by anything else of it.
 */
export function publicKeyProblem(host: string, { keys, defaultMeant }: GivenKeys, names: ReachNames): string | undefined {
  if (isLoopback(host) || defaultMeant) return undefined;
  const fix = `give your own with ${names.key}, or ${names.allowDefault}.`;
  const reach = `${names.host} ${host} lets other machines reach the mock`;
  if (keys.length === 0) return `${reach}, and its default key ${MOCK_DEFAULTS.apiKey} is public: ${fix}`;
  const given = keys.find((entry) => (typeof entry === 'string' ? entry : entry.key) === MOCK_DEFAULTS.apiKey);
  if (given === undefined) return undefined;
  const which = typeof given === 'string' ? 'a key it is given' : `the key labelled ${given.label}`;
  // The default is not written out: the CLI hides every key its command line names, this one too.
  return `${reach}, and ${which} is the public default key, which anyone may read in the docs: ${fix}`;
}

/** What the code API's server options say of who may reach it. */
interface Reach extends GivenKeys {
  readonly host: string;
  readonly allowedHosts?: readonly string[] | undefined;
}

/**
 * Checks a server's `host`, `allowedHosts` and key by the CLI's rules, and throws the sentence that
 * names the option: a `TypeError` for a value of the wrong form, an `Error` for the public key beyond loopback.
 * @example
 * checkReach({ host: '0.0.0.0', keys: [], defaultMeant: false }); // throws: host 0.0.0.0 lets other machines reach the mock, ...
 */
export function checkReach({ host, allowedHosts = [], ...given }: Reach, names: ReachNames = CODE_API_NAMES): void {
  const badHost = interfaceProblem(host);
  if (badHost !== undefined) throw new TypeError(`${names.host} ${JSON.stringify(host)}: ${badHost}`);
  for (const name of allowedHosts) {
    const badName = allowedHostProblem(name);
    if (badName !== undefined) throw new TypeError(`${names.allowedHosts} ${JSON.stringify(name)}: ${badName}`);
  }
  const publicKey = publicKeyProblem(host, given, names);
  if (publicKey !== undefined) throw new Error(publicKey);
}
