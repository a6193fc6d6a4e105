/**
 * Who may reach a server of the mock, stated once for the CLI (`--host`, `--allowed-host`,
 * `--api-key`) and the code API (`startMockServer`, `startProxyServer`: `host`, `allowedHosts`,
 * `apiKey`, `apiKeys`): the interface it binds is named (an empty one binds every interface unsaid),
 * the names clients may use are host names of RFC 1123, and an interface other machines reach needs
 * a key of the user's own, as the default one is public. The code API once started on `0.0.0.0` with
 * the public key (and `--proxy` then handed its upstream key to anyone who sent it), which the CLI
 * refused with exit 2. Each rule is a sentence naming the option, in the spelling of its caller.
 */
import { MOCK_DEFAULTS } from '../core/defaults.js';

/** True for addresses only this machine can reach. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** A label of a host name (RFC 1123 2.1): letters, digits and hyphens, 63 at most, a hyphen at neither end. */
const HOST_LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

/**
 * Whether `value` is an IP address or a host name of RFC 1123: labels (`HOST_LABEL`) between dots, 253
 * characters at most, one final dot allowed, and a last label that is not all digits, so that a name
 * never reads as an IPv4 address (`1.2.3.256` is neither). The one rule of a host to bind and of an allowed host.
 */
function isHost(value: string): boolean {
  if (isIpAddress(value)) return true;
  const name = value.endsWith('.') ? value.slice(0, -1) : value;
  const labels = name.split('.');
  return name.length > 0 && name.length <= 253 && labels.every((label) => HOST_LABEL.test(label)) && !/^\d+$/.test(labels.at(-1) ?? '');
}

/** An IPv4 address in dotted-decimal, each part 0 to 255 without a leading zero. */
const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

/**
 * Whether `value` is an IP address, as Node's `isIP` says, without `node:net`: the rules also run in
 * a browser build (MSW's handlers resolve their options here). An IPv6 address is what a URL's host takes between brackets.
 */
function isIpAddress(value: string): boolean {
  if (IPV4.test(value)) return true;
  // A link-local address may name its interface (`fe80::1%eth0`), as an interface to bind: the URL takes the address without it.
  const address = value.replace(/%[\w.-]+$/, '');
  if (!/^[0-9A-Fa-f:.]+$/.test(address) || !address.includes(':')) return false;
  try {
    new URL(`http://[${address}]/`);
    return true;
  } catch {
    return false;
  }
}

/** What a host name is, said when one is refused. */
const HOST_NAME_RULE =
  'A name is labels of letters, digits and inner hyphens (63 at most) between dots (RFC 1123), its last not all digits (1.2.3.256 is no address).';

/** Why `value` is no interface to bind, or `undefined`: an empty one would bind every interface unsaid. */
export function interfaceProblem(value: string): string | undefined {
  if (isHost(value)) return undefined;
  return `Expected an interface to bind: an IP address such as 127.0.0.1 (this machine only) or 0.0.0.0 (every interface), or a host name such as localhost.${value === '' ? '' : ` ${HOST_NAME_RULE}`}`;
}

/** Why `value` is no host name clients may reach the mock by, or `undefined`. */
export function allowedHostProblem(value: string): string | undefined {
  return isHost(value) ? undefined : `Expected a host name such as mock.internal, without scheme, port or path. ${HOST_NAME_RULE}`;
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
  allowDefault: `give apiKey: '${MOCK_DEFAULTS.apiKey}' if the default is meant`,
};

/** Why a server bound to `host` may not take the public default key, or `undefined`: `keyGiven` is whether the user named a key (the default one too). */
export function publicKeyProblem(host: string, keyGiven: boolean, names: ReachNames): string | undefined {
  if (isLoopback(host) || keyGiven) return undefined;
  return `${names.host} ${host} lets other machines reach the mock, and its default key ${MOCK_DEFAULTS.apiKey} is public: give your own with ${names.key}, or ${names.allowDefault}.`;
}

/** What the code API's server options say of who may reach it. */
interface Reach {
  readonly host: string;
  readonly allowedHosts?: readonly string[] | undefined;
  /** Whether `apiKey` or `apiKeys` names a key. */
  readonly keyGiven: boolean;
}

/**
 * Checks a server's `host`, `allowedHosts` and key by the CLI's rules, and throws the sentence that
 * names the option: a `TypeError` for a value of the wrong form, an `Error` for the public key beyond loopback.
 * @example
 * checkReach({ host: '0.0.0.0', keyGiven: false }); // throws: host 0.0.0.0 lets other machines reach the mock, ...
 */
export function checkReach({ host, allowedHosts = [], keyGiven }: Reach, names: ReachNames = CODE_API_NAMES): void {
  const badHost = interfaceProblem(host);
  if (badHost !== undefined) throw new TypeError(`${names.host} ${JSON.stringify(host)}: ${badHost}`);
  for (const name of allowedHosts) {
    const badName = allowedHostProblem(name);
    if (badName !== undefined) throw new TypeError(`${names.allowedHosts} ${JSON.stringify(name)}: ${badName}`);
  }
  const publicKey = publicKeyProblem(host, keyGiven, names);
  if (publicKey !== undefined) throw new Error(publicKey);
}
