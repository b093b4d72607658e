/**
 * The simulator's price table for the cloud API, following the drivers its price Actions take
 * (reference pricing-api.md §2): a host by size (cores, memory, machine type, GPUs) and its disks,
 * a disk by type and size, an EIP by line and bandwidth, a VPN gateway by grade, an anti-DDoS
 * service by bandwidth and defence values; each by charge type and quantity. Amounts are in 元
 * (CNY, two decimals), except UDisk's, which the API gives in 分 (fen, 1/100 元, whole numbers).
 *
 * Every figure below is invented for the simulator (the API's own figures are account-specific):
 * the monthly rates, the machine type factors, the year price (ten months for twelve), the hourly
 * price (a 720-hour month plus 20 %), and the 30-day month the upgrade prices prorate by.
 */

/** Monthly 元 per vCPU core and per GB of memory of an N-type host. */
export const HOST_MONTHLY = { perCore: 45, perGbMemory: 18, perGpu: 1500 };

/** How each machine type's price compares with type N's. */
export const MACHINE_TYPE_FACTOR: Readonly<Record<string, number>> = { N: 1, C: 1.3, G: 1.2, O: 1.1, OS: 1.1, OM: 1.2, OMEM: 1.2, OPRO: 1.25, OPROG: 1.3, OMAX: 1.5, 'O.BM': 1.6 };

/** Monthly 分 per GB of each UDisk type; a system disk costs as its data disk counterpart. */
export const DISK_FEN_PER_GB_MONTH: Readonly<Record<string, number>> = {
  DataDisk: 30,
  SSDDataDisk: 80,
  ESSDDataDisk: 90,
  RSSDDataDisk: 100,
  ERSSDDataDisk: 110,
  EfficiencyDataDisk: 50,
  SystemDisk: 30,
  SSDSystemDisk: 80,
  RSSDSystemDisk: 100,
  EfficiencySystemDisk: 50,
};

/** The UDisk type whose price a host disk (`Disks.N.Type`) pays. */
export const HOST_DISK_PRICE_TYPE: Readonly<Record<string, string>> = {
  CLOUD_NORMAL: 'DataDisk',
  CLOUD_SSD: 'SSDDataDisk',
  CLOUD_ESSD: 'ESSDDataDisk',
  CLOUD_RSSD: 'RSSDDataDisk',
  CLOUD_ERSSD: 'ERSSDDataDisk',
  CLOUD_EFFICIENCY: 'EfficiencyDataDisk',
  LOCAL_NORMAL: 'DataDisk',
  LOCAL_SSD: 'SSDDataDisk',
  EXCLUSIVE_LOCAL_DISK: 'SSDDataDisk',
};

/** Monthly 分 per GB of the snapshot service on a disk. */
export const SNAPSHOT_FEN_PER_GB_MONTH = 10;

/** Monthly 元 per Mbps of EIP bandwidth by line: the first 5 Mbps, then each one above. */
export const EIP_MONTHLY_PER_MBPS: Readonly<Record<string, { first5: number; above: number }>> = {
  Bgp: { first5: 23, above: 80 },
  International: { first5: 100, above: 100 },
  ChinaMobile: { first5: 20, above: 60 },
};

/** Monthly 元 for the address alone, the whole fixed price of a traffic-billed or shared-bandwidth EIP. */
export const EIP_ADDRESS_MONTHLY = 15;

/** Monthly 元 of a VPN gateway by grade. */
export const VPN_GATEWAY_MONTHLY: Readonly<Record<string, number>> = { Standard: 300, Enhanced: 600 };

/** Monthly 元 of an anti-DDoS service: base defence per Gbps, elastic headroom per Gbps above it, bandwidth per Mbps. */
export const NAP_MONTHLY = { perBaseGbps: 100, perElasticGbps: 20, perMbps: 30 };

/** IP quotas of an anti-DDoS service: free, and chargeable beyond them. */
export const NAP_IP_QUOTA = { free: 5, charged: 5, udpFree: 2 };

/** Monthly 元 of one anti-DDoS service IP beyond the free quota. */
export const NAP_IP_MONTHLY = 200;

/** Charge types every price Action that lists them answers when none is asked for. */
export const DEFAULT_CHARGE_TYPES = ['Year', 'Month', 'Dynamic'];

const HOURS_PER_MONTH = 720;
const DAY_MS = 86_400_000;

const round2 = (n: number): number => Math.round(n * 100) / 100;

/**
 * The price of `quantity` periods of a charge type for a monthly price: a year is ten months, an
 * hour (Dynamic, Postpay) a 720th of a month plus 20 % and ignores the quantity, a Preemptive hour
 * a fifth of that, a Trial nothing; a `Month` quantity of 0 runs to the end of the month.
 */
export function periodPrice(monthly: number, chargeType: string, quantity: number, now: number): number {
  switch (chargeType) {
    case 'Year':
      return monthly * 10 * quantity;
    case 'Month':
      return monthly * (quantity === 0 ? restOfMonth(now) : quantity);
    case 'Dynamic':
    case 'Postpay':
      return (monthly / HOURS_PER_MONTH) * 1.2;
    case 'Preemptive':
      return ((monthly / HOURS_PER_MONTH) * 1.2) / 5;
    default:
      return 0;
  }
}

/** The share of the current month still to run. */
function restOfMonth(now: number): number {
  const d = new Date(now);
  const start = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  const end = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
  return (end - now) / (end - start);
}

/** When what a price buys runs out (PurchaseValue, Unix seconds): after its periods, or an hour for hourly billing. */
export function purchaseValue(chargeType: string, quantity: number, now: number): number {
  const end = new Date(now);
  if (chargeType === 'Year') end.setUTCFullYear(end.getUTCFullYear() + quantity);
  else if (chargeType === 'Month' && quantity === 0) end.setTime(Date.UTC(end.getUTCFullYear(), end.getUTCMonth() + 1, 1));
  else if (chargeType === 'Month') end.setUTCMonth(end.getUTCMonth() + quantity);
  else end.setTime(now + 3_600_000);
  return Math.floor(end.getTime() / 1000);
}

/** When an object bought now runs out (ExpireTime, Unix seconds): after its prepaid periods; 0 for hourly billing, which prepays nothing. */
export function paidExpiry(chargeType: string, quantity: number, now: number): number {
  return chargeType === 'Year' || chargeType === 'Month' ? purchaseValue(chargeType, quantity, now) : 0;
}

/**
 * What changing a monthly price from `before` to `after` costs for the rest of a paid period that
 * ends at `expireTime` (Unix seconds): the difference prorated by 30-day months, negative for a
 * refund; with no paid period left (hourly billing, which has nothing prepaid), nothing.
 */
export function upgradePrice(before: number, after: number, expireTime: number, now: number): number {
  const left = expireTime * 1000 - now;
  if (left <= 0) return 0;
  return round2((after - before) * (left / (30 * DAY_MS)));
}

/** 元 rounded as the API gives them (two decimals). */
export function yuan(n: number): number {
  return round2(n);
}

/** 分 as UDisk's price Actions give them (whole numbers). */
export function fen(n: number): number {
  return Math.round(n);
}

/** Monthly 元 of a host of this size, without its disks. */
export function hostMonthly(cpu: number, memoryMb: number, machineType: string, gpus: number): number {
  const factor = MACHINE_TYPE_FACTOR[machineType] ?? 1;
  return (HOST_MONTHLY.perCore * cpu + (HOST_MONTHLY.perGbMemory * memoryMb) / 1024) * factor + HOST_MONTHLY.perGpu * gpus;
}

/** Monthly 元 of an EIP. */
export function eipMonthly(operator: string, bandwidth: number, payMode: string): number {
  if (payMode !== 'Bandwidth') return EIP_ADDRESS_MONTHLY;
  const rate = EIP_MONTHLY_PER_MBPS[operator];
  return rate.first5 * Math.min(bandwidth, 5) + rate.above * Math.max(0, bandwidth - 5);
}

/** Monthly 元 of an anti-DDoS service. */
export function napMonthly(bandwidth: number, base: number, max: number): number {
  return NAP_MONTHLY.perBaseGbps * base + NAP_MONTHLY.perElasticGbps * (max - base) + NAP_MONTHLY.perMbps * bandwidth;
}
