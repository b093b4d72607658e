/**
 * The allowed-domain rule: the anti-DDoS allow list takes registrable parent domains
 * (`example.com`, `example.com.cn`), which cover every host under them. A host name is rejected
 * with the parent it should be, rather than silently reduced, so that two hosts of one parent
 * never become two resources fighting over a single remote entry, and what the manifest says is
 * exactly what the API holds.
 *
 * Registrable means "one label below a public suffix". The public suffixes known here are every
 * single-label TLD plus the common second-level suffixes below; it is a built-in subset of the
 * Public Suffix List, not all of it.
 */

const MULTI_LABEL_SUFFIXES = new Set([
  // China (national and provincial)
  'com.cn',
  'net.cn',
  'org.cn',
  'gov.cn',
  'edu.cn',
  'ac.cn',
  'mil.cn',
  'bj.cn',
  'sh.cn',
  'tj.cn',
  'cq.cn',
  'he.cn',
  'sx.cn',
  'nm.cn',
  'ln.cn',
  'jl.cn',
  'hl.cn',
  'js.cn',
  'zj.cn',
  'ah.cn',
  'fj.cn',
  'jx.cn',
  'sd.cn',
  'ha.cn',
  'hb.cn',
  'hn.cn',
  'gd.cn',
  'gx.cn',
  'hi.cn',
  'sc.cn',
  'gz.cn',
  'yn.cn',
  'xz.cn',
  'sn.cn',
  'gs.cn',
  'qh.cn',
  'nx.cn',
  'xj.cn',
  'tw.cn',
  'hk.cn',
  'mo.cn',
  // Hong Kong, Macao, Taiwan
  'com.hk',
  'net.hk',
  'org.hk',
  'edu.hk',
  'gov.hk',
  'idv.hk',
  'com.mo',
  'net.mo',
  'org.mo',
  'com.tw',
  'net.tw',
  'org.tw',
  'edu.tw',
  'gov.tw',
  'idv.tw',
  // Elsewhere, the most used ones
  'co.uk',
  'org.uk',
  'ac.uk',
  'gov.uk',
  'me.uk',
  'ltd.uk',
  'plc.uk',
  'co.jp',
  'ne.jp',
  'or.jp',
  'ac.jp',
  'go.jp',
  'co.kr',
  'or.kr',
  'ne.kr',
  'com.au',
  'net.au',
  'org.au',
  'edu.au',
  'gov.au',
  'co.nz',
  'org.nz',
  'net.nz',
  'com.sg',
  'net.sg',
  'org.sg',
  'edu.sg',
  'com.my',
  'net.my',
  'org.my',
  'co.th',
  'in.th',
  'co.id',
  'or.id',
  'com.br',
  'net.br',
  'org.br',
  'com.mx',
  'com.ar',
  'co.in',
  'net.in',
  'org.in',
  'co.za',
  'com.tr',
  'com.ru',
]);

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** The registrable domain of a host (`api.example.com` → `example.com`); undefined for a bare suffix. */
export function registrableDomain(host: string): string | undefined {
  const labels = host.split('.');
  const lastTwo = labels.slice(-2).join('.');
  const suffixLabels = labels.length >= 2 && MULTI_LABEL_SUFFIXES.has(lastTwo) ? 2 : 1;
  if (labels.length <= suffixLabels) return undefined;
  return labels.slice(-(suffixLabels + 1)).join('.');
}

/** Why a value cannot be an allowed domain, or undefined when it can. */
export function allowedDomainProblem(domain: string): string | undefined {
  if (domain !== domain.trim() || domain === '') return 'domain must be a domain name such as example.com';
  if (domain !== domain.toLowerCase()) return `domain must be lower case: ${domain.toLowerCase()}`;
  if (domain.startsWith('*.')) return `wildcards are not accepted; allow the parent domain ${domain.slice(2)} instead`;
  if (domain.endsWith('.')) return `domain must not end with a dot: ${domain.slice(0, -1)}`;
  if (domain.includes('://') || domain.includes('/')) return 'domain must be a bare domain name, without scheme or path';
  const labels = domain.split('.');
  if (domain.length > 253 || labels.length < 2 || !labels.every((l) => LABEL.test(l)) || !/^([a-z]{2,63}|xn--[a-z0-9-]+)$/.test(labels[labels.length - 1])) {
    return `${domain} is not a valid domain name`;
  }
  const parent = registrableDomain(domain);
  if (parent === undefined) return `${domain} is a public suffix; give the registrable domain under it (e.g. example.${domain})`;
  if (parent !== domain) return `domain must be the registrable parent domain: use ${parent} (it covers ${domain} and every other host under it)`;
  return undefined;
}
