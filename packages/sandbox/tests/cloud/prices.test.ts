/**
 * The cloud price Actions, called as the API documentation describes them (signed form posts).
 * Reply shapes are checked field by field against ucloud-sdk-js @ 3db7093
 * lib/services/{uhost,udisk,unet,ipsecvpn}/index.d.ts (GetUHostInstancePriceResponse,
 * GetUHostUpgradePriceResponse, DescribeUDiskPriceResponse, DescribeUDiskUpgradePriceResponse,
 * GetEIPPriceResponse, GetEIPUpgradePriceResponse, GetVPNGatewayPriceResponse,
 * GetVPNGatewayUpgradePriceResponse; sdk-shapes.test.ts walks them too) and, for what only the Go
 * SDK declares, ucloud-sdk-go @ ff76b12 services/uhost/models.go (UHostPriceSet, PriceDetail) and
 * services/uads/apis.go (GetBuyNapServicePriceResponse,
 * DescribeUpgradeHighProtectGameServicePriceResponse).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloudApi } from '../../src/cloud/index.js';
import { startSandbox, type Sandbox } from '../../src/server.js';
import { cloudActions } from '../support/cloud-api.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ provisioningMs: 0, apis: [cloudApi] });
});
afterAll(() => sb.close());

const { call, ok } = cloudActions(() => sb);
const ZONE = 'cn-bj2-02';
const host = (over: Record<string, string | number> = {}) => ({
  Action: 'GetUHostInstancePrice',
  Zone: ZONE,
  CPU: 2,
  Memory: 4096,
  Count: 1,
  'Disks.0.IsBoot': 'True',
  'Disks.0.Type': 'CLOUD_SSD',
  'Disks.0.Size': 40,
  ChargeType: 'Month',
  ...over,
});
const hostPrice = async (over: Record<string, string | number> = {}) => (await ok(host(over))).PriceSet[0].Price as number;
const diskPrice = async (over: Record<string, string | number> = {}) => (await ok({ Action: 'DescribeUDiskPrice', Zone: ZONE, Size: 100, ...over })).DataSet[0].Price as number;

describe('GetUHostInstancePrice', () => {
  it('answers a PriceSet of UHostPriceSet items, one per charge type when none is asked for', async () => {
    const r = await ok(host({ ChargeType: '' }));
    expect(r.Action).toBe('GetUHostInstancePriceResponse');
    expect(r.PriceSet.map((p: any) => p.ChargeType)).toEqual(['Year', 'Month', 'Dynamic']);
    for (const p of r.PriceSet) {
      expect(typeof p.ChargeType).toBe('string');
      for (const f of ['Price', 'OriginalPrice', 'ListPrice']) expect(typeof p[f]).toBe('number');
      for (const detail of [p.PriceDetail, p.OriginalPriceDetail]) expect(Object.keys(detail).sort()).toEqual(['Snapshot', 'UDisk', 'UHost', 'Volume']);
      expect(p.Price).toBe(Math.round(p.Price * 100) / 100); // 元, two decimals
      expect(p.PriceDetail.UHost + p.PriceDetail.UDisk).toBeCloseTo(p.Price, 2);
    }
  });

  it('costs more for a bigger host, a costlier machine type, more hosts and more months', async () => {
    const base = await hostPrice();
    expect(await hostPrice({ CPU: 8, Memory: 16384 })).toBeGreaterThan(base);
    expect(await hostPrice({ MachineType: 'OMAX' })).toBeGreaterThan(base);
    expect(await hostPrice({ Count: 2 })).toBeCloseTo(2 * base, 2);
    expect(await hostPrice({ Quantity: 3 })).toBeCloseTo(3 * base, 2);
    expect(await hostPrice({ ChargeType: 'Year' })).toBeLessThan(12 * base);
    expect(await hostPrice({ ChargeType: 'Dynamic' })).toBeLessThan(base);
  });

  it('prices a host disk as DescribeUDiskPrice prices the disk, in 元 where that answers in 分', async () => {
    const withDisk = await hostPrice({ 'Disks.1.IsBoot': 'False', 'Disks.1.Type': 'CLOUD_NORMAL', 'Disks.1.Size': 100 });
    expect(withDisk - (await hostPrice())).toBeCloseTo((await diskPrice({ DiskType: 'DataDisk' })) / 100, 2);
  });

  it.each([
    ['no CPU', { CPU: '' }, 230],
    ['more than 5 hosts', { Count: 6 }, 230],
    ['a CPU count out of range', { CPU: 65 }, 8044],
    ['memory not in whole GB', { Memory: 1500 }, 8045],
    ['an unknown charge type', { ChargeType: 'Weekly' }, 230],
    ['an unknown zone', { Zone: 'cn-bj2-99' }, 230],
  ])('refuses %s with its RetCode', async (_why, over, code) => {
    expect((await call(host(over))).RetCode).toBe(code);
  });
});

describe('DescribeUDiskPrice', () => {
  it('answers DataSet items in 分 (whole numbers), Month when no charge type is asked for', async () => {
    const r = await ok({ Action: 'DescribeUDiskPrice', Zone: ZONE, Size: 100, SnapshotService: 'Yes', IsTotalPrice: 'Yes' });
    expect(r.DataSet.map((d: any) => d.ChargeName)).toEqual(['UDisk', 'SnapshotService', 'Total']);
    for (const d of r.DataSet) {
      expect(d.ChargeType).toBe('Month');
      for (const f of ['Price', 'OriginalPrice', 'ListPrice']) expect(Number.isInteger(d[f])).toBe(true);
    }
    expect(r.DataSet[2].Price).toBe(r.DataSet[0].Price + r.DataSet[1].Price);
  });

  it('prices by size and disk type', async () => {
    expect(await diskPrice({ Size: 200 })).toBe(2 * (await diskPrice()));
    expect(await diskPrice({ DiskType: 'SSDDataDisk' })).toBeGreaterThan(await diskPrice({ DiskType: 'DataDisk' }));
  });

  it.each([
    ['no Zone', { Zone: '' }],
    ['no Size', { Size: '' }],
    ['a size over the type maximum', { Size: 4001, DiskType: 'SSDSystemDisk' }],
    ['an unknown disk type', { DiskType: 'FloppyDisk' }],
  ])('refuses %s with RetCode 230', async (_why, over) => {
    expect((await call({ Action: 'DescribeUDiskPrice', Zone: ZONE, Size: 100, ...over })).RetCode).toBe(230);
  });
});

describe('GetEIPPrice and GetVPNGatewayPrice', () => {
  it('answer PriceSet items in 元 with the expiry of what is bought', async () => {
    const now = Date.now() / 1000;
    for (const r of [await ok({ Action: 'GetEIPPrice', OperatorName: 'Bgp', Bandwidth: 10 }), await ok({ Action: 'GetVPNGatewayPrice', Grade: 'Standard' })]) {
      expect(r.PriceSet.map((p: any) => p.ChargeType)).toEqual(['Year', 'Month', 'Dynamic']);
      for (const p of r.PriceSet) {
        expect(typeof p.Price).toBe('number');
        expect(p.PurchaseValue).toBeGreaterThan(now);
      }
    }
  });

  it('price more bandwidth and a higher grade higher', async () => {
    const eip = async (bw: number) => (await ok({ Action: 'GetEIPPrice', OperatorName: 'Bgp', Bandwidth: bw, ChargeType: 'Month' })).PriceSet[0].Price;
    expect(await eip(20)).toBeGreaterThan(await eip(2));
    const vpn = async (grade: string) => (await ok({ Action: 'GetVPNGatewayPrice', Grade: grade, ChargeType: 'Month' })).PriceSet[0].Price;
    expect(await vpn('Enhanced')).toBeGreaterThan(await vpn('Standard'));
  });

  it('refuses a missing line, bandwidth over 800 and an unknown grade with RetCode 230', async () => {
    expect((await call({ Action: 'GetEIPPrice', Bandwidth: 10 })).RetCode).toBe(230);
    expect((await call({ Action: 'GetEIPPrice', OperatorName: 'Bgp', Bandwidth: 900 })).RetCode).toBe(230);
    expect((await call({ Action: 'GetVPNGatewayPrice', Grade: 'Huge' })).RetCode).toBe(230);
  });

  it('are throttled like any Action: over a limit, RetCode 153', async () => {
    const limited = await startSandbox({
      provisioningMs: 0,
      apis: [cloudApi],
      limits: [{ provider: 'cloud', name: 'price calls', match: /^GetVPNGatewayPrice$/, max: 2, windowMs: 60_000, per: 'account', source: 'test' }],
    });
    try {
      const answers = [];
      for (let i = 0; i < 3; i++) answers.push((await call({ Action: 'GetVPNGatewayPrice', Grade: 'Standard' }, limited)).RetCode);
      expect(answers).toEqual([0, 0, 153]);
    } finally {
      await limited.close();
    }
  });
});

describe('the upgrade prices', () => {
  it('give the difference for the rest of the paid period, negative for a refund', async () => {
    const { EIPSet } = await ok({ Action: 'AllocateEIP', OperatorName: 'Bgp', Bandwidth: 10, ChargeType: 'Month' });
    const EIPId = EIPSet[0].EIPId;
    const up = await ok({ Action: 'GetEIPUpgradePrice', EIPId, Bandwidth: 20 });
    expect(Object.keys(up).sort()).toEqual(['Action', 'Price', 'RetCode']);
    expect(up.Price).toBeGreaterThan(0);
    expect((await ok({ Action: 'GetEIPUpgradePrice', EIPId, Bandwidth: 5 })).Price).toBeLessThan(0);
    expect((await call({ Action: 'GetEIPUpgradePrice', EIPId: 'eip-none', Bandwidth: 5 })).RetCode).toBe(4210);

    const { UDiskId } = await ok({ Action: 'CreateUDisk', Zone: ZONE, Name: 'priced', Size: 50, ChargeType: 'Month' });
    const disk = await ok({ Action: 'DescribeUDiskUpgradePrice', Zone: ZONE, SourceId: UDiskId[0], Size: 100 });
    expect(Object.keys(disk).sort()).toEqual(['Action', 'OriginalPrice', 'Price', 'RetCode']);
    expect(Number.isInteger(disk.Price) && disk.Price > 0).toBe(true);
    expect((await call({ Action: 'DescribeUDiskUpgradePrice', Zone: ZONE, SourceId: UDiskId[0], Size: 10 })).RetCode).toBe(230);
  });

  it('GetUHostUpgradePrice prices a resize of an existing host, and refuses an unknown one with 8039', async () => {
    const { ImageSet } = await ok({ Action: 'DescribeImage', Zone: ZONE, ImageType: 'Base' });
    const { VPCId } = await ok({ Action: 'CreateVPC', Name: 'price', 'Network.0': '10.190.0.0/16' });
    const { SubnetId } = await ok({ Action: 'CreateSubnet', VPCId, Subnet: '10.190.1.0', Netmask: 24 });
    const password = Buffer.from('Price-pass-1').toString('base64');
    const { UHostIds } = await ok({
      Action: 'CreateUHostInstance',
      Zone: ZONE,
      VPCId,
      SubnetId,
      ImageId: ImageSet[0].ImageId,
      LoginMode: 'Password',
      Password: password,
      CPU: 2,
      Memory: 4096,
      'Disks.0.IsBoot': 'True',
      'Disks.0.Type': 'CLOUD_SSD',
      'Disks.0.Size': 40,
    });
    const r = await ok({ Action: 'GetUHostUpgradePrice', UHostId: UHostIds[0], CPU: 4, Memory: 8192 });
    expect(Object.keys(r).sort()).toEqual(['Action', 'OriginalPrice', 'Price', 'RetCode']);
    expect(r.Price).toBeGreaterThan(0);
    expect((await ok({ Action: 'GetUHostUpgradePrice', UHostId: UHostIds[0], CPU: 1, Memory: 2048 })).Price).toBeLessThan(0);
    expect((await call({ Action: 'GetUHostUpgradePrice', UHostId: 'uhost-none', CPU: 4 })).RetCode).toBe(8039);
  });

  it('an hourly (Dynamic) object has nothing prepaid: its upgrade price is 0', async () => {
    const { EIPSet } = await ok({ Action: 'AllocateEIP', OperatorName: 'Bgp', Bandwidth: 10, ChargeType: 'Dynamic' });
    expect((await ok({ Action: 'GetEIPUpgradePrice', EIPId: EIPSet[0].EIPId, Bandwidth: 50 })).Price).toBe(0);
  });

  it('GetVPNGatewayUpgradePrice refuses an unknown gateway with 54002', async () => {
    expect((await call({ Action: 'GetVPNGatewayUpgradePrice', VPNGatewayId: 'vpngw-none', Grade: 'Enhanced' })).RetCode).toBe(54002);
  });
});

describe('anti-DDoS prices (Go SDK only)', () => {
  const nap = {
    Action: 'GetBuyNapServicePrice',
    AreaLine: 'EastChina',
    'EngineRoom.0': 'Zaozhuang',
    LineType: 'BGP',
    ChargeType: 'Month',
    Quantity: '1',
    SrcBandwidth: '100',
    'DefenceDDosBaseFlowArr.0': '30',
    'DefenceDDosMaxFlowArr.0': '60',
  };

  it('GetBuyNapServicePrice answers Price, the IP quotas and Message, and prices more bandwidth higher', async () => {
    const r = await ok(nap);
    expect(Object.keys(r).sort()).toEqual(['Action', 'ChargeIPQuota', 'FreeIPQuota', 'Message', 'Price', 'RetCode', 'UdpFreeIpQuota']);
    for (const f of ['ChargeIPQuota', 'FreeIPQuota', 'UdpFreeIpQuota']) expect(Number.isInteger(r[f])).toBe(true);
    expect(typeof r.Message).toBe('string');
    expect((await ok({ ...nap, SrcBandwidth: '200' })).Price).toBeGreaterThan(r.Price);
  });

  it.each(['AreaLine', 'ChargeType', 'LineType', 'Quantity', 'SrcBandwidth', 'EngineRoom.0', 'DefenceDDosBaseFlowArr.0'])(
    'GetBuyNapServicePrice refuses a call without %s with RetCode 230',
    async (field) => {
      expect((await call({ ...nap, [field]: '' })).RetCode).toBe(230);
    },
  );

  it('DescribeUpgradeHighProtectGameServicePrice answers an int Price and the quotas for an existing service', async () => {
    const buy = { ...nap, Action: 'BuyHighProtectGameService', HighProtectGameServiceName: 'priced', Quantity: 1 };
    const { ResourceInfo } = await ok(buy);
    const r = await ok({ Action: 'DescribeUpgradeHighProtectGameServicePrice', ResourceId: ResourceInfo.ResourceId, SrcBandwidth: 300 });
    expect(Object.keys(r).sort()).toEqual(['Action', 'ChargeIPQuota', 'FreeIPQuota', 'Price', 'RetCode']);
    expect(Number.isInteger(r.Price) && r.Price > 0).toBe(true);
    expect((await call({ Action: 'DescribeUpgradeHighProtectGameServicePrice', ResourceId: 'usecure_ghp-none' })).RetCode).toBe(230);
  });

  it('DescribeBuyHighProtectGameIPPrice answers the UnitPrice of one IP beyond the free quota, a year dearer than a month', async () => {
    const { ResourceInfo } = await ok({ ...nap, Action: 'BuyHighProtectGameService', HighProtectGameServiceName: 'ip-priced', Quantity: 1 });
    const ask = { Action: 'DescribeBuyHighProtectGameIPPrice', ResourceId: ResourceInfo.ResourceId, ChargeType: 'Month', Quantity: 1 };
    const month = await ok(ask);
    expect(Object.keys(month).sort()).toEqual(['Action', 'PremiumPrice', 'RetCode', 'UnitPrice']);
    expect(month.UnitPrice).toBeGreaterThan(0);
    expect((await ok({ ...ask, ChargeType: 'Year' })).UnitPrice).toBeGreaterThan(month.UnitPrice);
    expect((await call({ ...ask, ResourceId: 'usecure_ghp-none' })).RetCode).toBe(230);
    const { Quantity: _q, ...noQuantity } = ask;
    expect((await call(noQuantity)).RetCode).not.toBe(0);
  });
});
