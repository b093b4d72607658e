/**
 * Ids of the seeded objects that other seed records point at. Ids follow the vendor's
 * `adjective_noun` style; they are fixed so examples and tests can name them.
 */

/** Group ids; each group's destination has the same id. */
export const GROUP = {
  analytics: 'decent_dropsy',
  marketing: 'sharp_heron',
  financeEu: 'quiet_badger',
  apac: 'brisk_otter',
  productAzure: 'mellow_lynx',
  onPremLab: 'amber_falcon',
} as const;

/** User ids. */
export const USER = {
  maria: 'wise_owl',
  dev: 'calm_panda',
  sofia: 'bold_raven',
  liam: 'keen_walrus',
  hana: 'vivid_moose',
  tom: 'gentle_crane',
  amara: 'swift_ibis',
  chen: 'noble_yak',
} as const;

/** Team ids. */
export const TEAM = {
  dataPlatform: 'sturdy_beaver',
  growth: 'cheerful_finch',
  financeOps: 'prudent_tortoise',
} as const;

/** Private link ids. */
export const LINK = {
  dbxEu: 'eager_lemur',
  ordersUse1: 'tidy_marmot',
  erpEuc1: 'jolly_puffin',
  billingGcp: 'brave_tapir',
  azureSql: 'rusty_wombat',
  apacRedshift: 'fuzzy_alpaca',
} as const;

/** Proxy agent ids. */
export const PROXY = {
  frankfurt: 'steady_koala',
  newYork: 'hidden_marten',
  westEurope: 'polar_stoat',
} as const;

/** Hybrid deployment agent ids. */
export const AGENT = {
  labDocker: 'cosmic_beetle',
  labKubernetes: 'silent_viper',
  analyticsPodman: 'misty_newt',
} as const;

/** The account every object belongs to. */
export const ACCOUNT_ID = 'lofty_summit';
