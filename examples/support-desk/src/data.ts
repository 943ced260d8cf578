/**
 * The support desk's seed data: customers and their orders, as of {@link TODAY}.
 *
 * Amounts are in cents. Dates are ISO days. The data is anchored to a fixed "today" so that the
 * refund window (30 days after delivery) gives the same answers in the demo and in tests.
 */

/** The day the data describes; policies that depend on time use this, not the clock. */
export const TODAY = '2026-03-14';

export interface Customer {
  id: string;
  name: string;
  email: string;
  /** Shipping address, one line. */
  address: string;
  since: string;
}

export type OrderStatus = 'placed' | 'processing' | 'shipped' | 'delivered' | 'cancelled' | 'refunded';

export interface OrderItem {
  sku: string;
  name: string;
  qty: number;
  /** Unit price in cents. */
  price: number;
}

export interface ShipmentEvent {
  at: string;
  where: string;
  what: string;
}

export interface Shipment {
  carrier: string;
  tracking: string;
  shippedAt: string;
  /** Expected delivery day while in transit. */
  eta?: string;
  deliveredAt?: string;
  events: ShipmentEvent[];
}

export interface Order {
  id: string;
  customerId: string;
  placedAt: string;
  status: OrderStatus;
  items: OrderItem[];
  /** Sum of the items, in cents. */
  total: number;
  /** How much was charged; more than `total` when the customer was charged twice. */
  charged: number;
  /** Refunded so far, in cents. */
  refunded: number;
  shipment?: Shipment;
  cancelledAt?: string;
}

export const CUSTOMERS: Customer[] = [
  {
    id: 'C-1001',
    name: 'Dana Whitfield',
    email: 'dana.whitfield@example.com',
    address: '14 Alder Row, Bristol BS1 4DJ, UK',
    since: '2023-05-02',
  },
  {
    id: 'C-1002',
    name: 'Marcus Oyelaran',
    email: 'marcus.o@example.com',
    address: '220 Canal St, Apt 5B, New York, NY 10013, US',
    since: '2024-01-19',
  },
  {
    id: 'C-1003',
    name: 'Priya Raman',
    email: 'priya.raman@example.com',
    address: '7 Koramangala 5th Block, Bengaluru 560095, IN',
    since: '2022-11-08',
  },
  {
    id: 'C-1004',
    name: 'Tomás Herrera',
    email: 'tomas.herrera@example.com',
    address: 'Calle de Toledo 41, 28005 Madrid, ES',
    since: '2025-02-27',
  },
  {
    id: 'C-1005',
    name: 'Ingrid Solberg',
    email: 'ingrid.solberg@example.com',
    address: 'Thereses gate 12, 0168 Oslo, NO',
    since: '2021-09-14',
  },
  {
    id: 'C-1006',
    name: 'Kenji Watanabe',
    email: 'kenji.w@example.com',
    address: '3-12-8 Nakameguro, Meguro-ku, Tokyo 153-0061, JP',
    since: '2024-07-30',
  },
  {
    id: 'C-1007',
    name: 'Aisha Bello',
    email: 'aisha.bello@example.com',
    address: '18 Admiralty Way, Lekki, Lagos 106104, NG',
    since: '2025-06-03',
  },
  {
    id: 'C-1008',
    name: "Liam O'Connor",
    email: 'liam.oconnor@example.com',
    address: '9 Harcourt Terrace, Dublin D02 WC83, IE',
    since: '2023-12-11',
  },
];

const CATALOG = {
  headphones: { sku: 'AUD-220', name: 'Arc wireless headphones', price: 7900 },
  earbuds: { sku: 'AUD-140', name: 'Pebble earbuds', price: 4900 },
  speaker: { sku: 'AUD-310', name: 'Drift bluetooth speaker', price: 12900 },
  lamp: { sku: 'HOM-101', name: 'Halo desk lamp', price: 3450 },
  kettle: { sku: 'HOM-212', name: 'Brew gooseneck kettle', price: 6400 },
  blanket: { sku: 'HOM-330', name: 'Merino throw blanket', price: 8900 },
  mug: { sku: 'HOM-405', name: 'Stoneware mug', price: 1800 },
  jacketM: { sku: 'APP-510-M', name: 'Fjord rain jacket (M)', price: 14900 },
  jacketL: { sku: 'APP-510-L', name: 'Fjord rain jacket (L)', price: 14900 },
  socks: { sku: 'APP-120', name: 'Trail socks (3 pairs)', price: 2400 },
  runnersA: { sku: 'APP-740-42', name: 'Strider running shoes (EU 42)', price: 11900 },
  runnersB: { sku: 'APP-740-43', name: 'Strider running shoes (EU 43)', price: 11900 },
  backpack: { sku: 'TRV-600', name: 'Summit 28L backpack', price: 9800 },
  bottle: { sku: 'TRV-115', name: 'Insulated bottle 750ml', price: 2900 },
  monitor: { sku: 'TEC-900', name: 'Lumen 27" 4K monitor', price: 54900 },
  keyboard: { sku: 'TEC-410', name: 'Quill mechanical keyboard', price: 13900 },
  mouse: { sku: 'TEC-205', name: 'Glide wireless mouse', price: 5900 },
  charger: { sku: 'TEC-130', name: 'Volt 65W charger', price: 3900 },
} as const;

type Sku = keyof typeof CATALOG;

function items(...list: [Sku, number?][]): OrderItem[] {
  return list.map(([key, qty = 1]) => ({ ...CATALOG[key], qty }));
}

interface Spec {
  id: string;
  customer: string;
  placed: string;
  status: OrderStatus;
  items: OrderItem[];
  carrier?: string;
  shipped?: string;
  eta?: string;
  delivered?: string;
  cancelled?: string;
  /** Charged twice by mistake. */
  doubleCharged?: boolean;
}

let trackingSeq = 0;

function order(spec: Spec): Order {
  const total = spec.items.reduce((sum, item) => sum + item.price * item.qty, 0);
  const out: Order = {
    id: spec.id,
    customerId: spec.customer,
    placedAt: spec.placed,
    status: spec.status,
    items: spec.items,
    total,
    charged: spec.status === 'placed' ? 0 : spec.doubleCharged ? total * 2 : total,
    refunded: spec.status === 'refunded' ? total : 0,
  };
  if (spec.status === 'cancelled') {
    out.cancelledAt = spec.cancelled ?? spec.placed;
    out.charged = 0;
  }
  if (spec.shipped) {
    const carrier = spec.carrier ?? 'Parcelwise';
    const tracking = `${carrier.slice(0, 2).toUpperCase()}${String(48213907 + ++trackingSeq * 7919).padStart(10, '0')}`;
    const events: ShipmentEvent[] = [
      { at: spec.shipped, where: 'Fulfilment centre, Leeds', what: 'Picked up by carrier' },
    ];
    if (spec.delivered || spec.eta) {
      events.push({ at: spec.shipped, where: 'Sorting hub', what: 'Arrived at sorting hub' });
    }
    if (spec.delivered) events.push({ at: spec.delivered, where: 'Destination', what: 'Delivered' });
    out.shipment = { carrier, tracking, shippedAt: spec.shipped, events };
    if (spec.eta) out.shipment.eta = spec.eta;
    if (spec.delivered) out.shipment.deliveredAt = spec.delivered;
  }
  return out;
}

/** Every order in the shop, oldest first per customer. */
export const ORDERS: Order[] = [
  // Dana Whitfield: the demo's customer.
  order({
    id: 'A-0987',
    customer: 'C-1001',
    placed: '2025-12-01',
    status: 'delivered',
    items: items(['blanket'], ['mug', 2]),
    shipped: '2025-12-02',
    delivered: '2025-12-05',
  }),
  order({
    id: 'A-1013',
    customer: 'C-1001',
    placed: '2026-02-26',
    status: 'delivered',
    items: items(['headphones']),
    shipped: '2026-02-27',
    delivered: '2026-03-02',
  }),
  order({
    id: 'A-1021',
    customer: 'C-1001',
    placed: '2026-03-01',
    status: 'delivered',
    items: items(['kettle'], ['mug', 2]),
    shipped: '2026-03-02',
    delivered: '2026-03-05',
    doubleCharged: true,
  }),
  order({
    id: 'A-1042',
    customer: 'C-1001',
    placed: '2026-03-09',
    status: 'shipped',
    items: items(['jacketM'], ['socks']),
    carrier: 'Royal Post',
    shipped: '2026-03-10',
    eta: '2026-03-16',
  }),
  order({ id: 'A-1057', customer: 'C-1001', placed: '2026-03-13', status: 'processing', items: items(['runnersA']) }),

  // Marcus Oyelaran
  order({
    id: 'A-0954',
    customer: 'C-1002',
    placed: '2025-10-17',
    status: 'delivered',
    items: items(['monitor']),
    carrier: 'UPS',
    shipped: '2025-10-18',
    delivered: '2025-10-22',
  }),
  order({
    id: 'A-1005',
    customer: 'C-1002',
    placed: '2026-02-20',
    status: 'delivered',
    items: items(['keyboard'], ['mouse']),
    carrier: 'UPS',
    shipped: '2026-02-21',
    delivered: '2026-02-24',
  }),
  order({
    id: 'A-1049',
    customer: 'C-1002',
    placed: '2026-03-11',
    status: 'shipped',
    items: items(['charger', 2]),
    carrier: 'UPS',
    shipped: '2026-03-12',
    eta: '2026-03-15',
  }),
  order({ id: 'A-1060', customer: 'C-1002', placed: '2026-03-14', status: 'placed', items: items(['monitor']) }),

  // Priya Raman
  order({
    id: 'A-0962',
    customer: 'C-1003',
    placed: '2025-11-03',
    status: 'refunded',
    items: items(['speaker']),
    carrier: 'BlueDart',
    shipped: '2025-11-04',
    delivered: '2025-11-09',
  }),
  order({
    id: 'A-0999',
    customer: 'C-1003',
    placed: '2026-02-14',
    status: 'delivered',
    items: items(['backpack'], ['bottle', 2]),
    carrier: 'BlueDart',
    shipped: '2026-02-15',
    delivered: '2026-02-20',
  }),
  order({
    id: 'A-1030',
    customer: 'C-1003',
    placed: '2026-03-04',
    status: 'cancelled',
    items: items(['earbuds']),
    cancelled: '2026-03-04',
  }),
  order({
    id: 'A-1052',
    customer: 'C-1003',
    placed: '2026-03-12',
    status: 'processing',
    items: items(['lamp', 2], ['mug', 4]),
  }),

  // Tomás Herrera
  order({
    id: 'A-0971',
    customer: 'C-1004',
    placed: '2025-11-20',
    status: 'delivered',
    items: items(['runnersB']),
    carrier: 'Correos',
    shipped: '2025-11-21',
    delivered: '2025-11-26',
  }),
  order({
    id: 'A-1018',
    customer: 'C-1004',
    placed: '2026-02-28',
    status: 'delivered',
    items: items(['jacketL']),
    carrier: 'Correos',
    shipped: '2026-03-01',
    delivered: '2026-03-06',
  }),
  order({
    id: 'A-1044',
    customer: 'C-1004',
    placed: '2026-03-10',
    status: 'shipped',
    items: items(['socks', 2], ['bottle']),
    carrier: 'Correos',
    shipped: '2026-03-11',
    eta: '2026-03-17',
  }),

  // Ingrid Solberg
  order({
    id: 'A-0940',
    customer: 'C-1005',
    placed: '2025-09-28',
    status: 'delivered',
    items: items(['blanket', 2]),
    carrier: 'Posten',
    shipped: '2025-09-29',
    delivered: '2025-10-03',
  }),
  order({
    id: 'A-0993',
    customer: 'C-1005',
    placed: '2026-02-10',
    status: 'delivered',
    items: items(['kettle']),
    carrier: 'Posten',
    shipped: '2026-02-11',
    delivered: '2026-02-16',
  }),
  order({
    id: 'A-1026',
    customer: 'C-1005',
    placed: '2026-03-03',
    status: 'delivered',
    items: items(['speaker'], ['charger']),
    carrier: 'Posten',
    shipped: '2026-03-04',
    delivered: '2026-03-09',
  }),
  order({ id: 'A-1058', customer: 'C-1005', placed: '2026-03-13', status: 'placed', items: items(['lamp']) }),

  // Kenji Watanabe
  order({
    id: 'A-0978',
    customer: 'C-1006',
    placed: '2025-12-08',
    status: 'delivered',
    items: items(['keyboard']),
    carrier: 'Yamato',
    shipped: '2025-12-09',
    delivered: '2025-12-14',
  }),
  order({
    id: 'A-1009',
    customer: 'C-1006',
    placed: '2026-02-22',
    status: 'refunded',
    items: items(['mouse']),
    carrier: 'Yamato',
    shipped: '2026-02-23',
    delivered: '2026-02-26',
  }),
  order({
    id: 'A-1036',
    customer: 'C-1006',
    placed: '2026-03-06',
    status: 'delivered',
    items: items(['monitor'], ['charger']),
    carrier: 'Yamato',
    shipped: '2026-03-07',
    delivered: '2026-03-11',
  }),
  order({
    id: 'A-1054',
    customer: 'C-1006',
    placed: '2026-03-12',
    status: 'shipped',
    items: items(['earbuds']),
    carrier: 'Yamato',
    shipped: '2026-03-13',
    eta: '2026-03-18',
  }),

  // Aisha Bello
  order({
    id: 'A-1001',
    customer: 'C-1007',
    placed: '2026-02-18',
    status: 'delivered',
    items: items(['backpack']),
    carrier: 'DHL',
    shipped: '2026-02-19',
    delivered: '2026-02-25',
  }),
  order({
    id: 'A-1033',
    customer: 'C-1007',
    placed: '2026-03-05',
    status: 'delivered',
    items: items(['lamp'], ['blanket']),
    carrier: 'DHL',
    shipped: '2026-03-06',
    delivered: '2026-03-12',
    doubleCharged: true,
  }),
  order({
    id: 'A-1047',
    customer: 'C-1007',
    placed: '2026-03-10',
    status: 'processing',
    items: items(['headphones'], ['charger']),
  }),

  // Liam O'Connor
  order({
    id: 'A-0967',
    customer: 'C-1008',
    placed: '2025-11-12',
    status: 'delivered',
    items: items(['jacketL'], ['socks']),
    carrier: 'An Post',
    shipped: '2025-11-13',
    delivered: '2025-11-16',
  }),
  order({
    id: 'A-1011',
    customer: 'C-1008',
    placed: '2026-02-25',
    status: 'delivered',
    items: items(['speaker']),
    carrier: 'An Post',
    shipped: '2026-02-26',
    delivered: '2026-03-01',
  }),
  order({
    id: 'A-1039',
    customer: 'C-1008',
    placed: '2026-03-08',
    status: 'shipped',
    items: items(['kettle'], ['mug', 2]),
    carrier: 'An Post',
    shipped: '2026-03-09',
    eta: '2026-03-14',
  }),
  order({ id: 'A-1061', customer: 'C-1008', placed: '2026-03-14', status: 'placed', items: items(['runnersB']) }),

  // More of the regulars.
  order({
    id: 'A-0958',
    customer: 'C-1001',
    placed: '2025-10-28',
    status: 'cancelled',
    items: items(['speaker']),
    cancelled: '2025-10-28',
  }),
  order({
    id: 'A-1016',
    customer: 'C-1002',
    placed: '2026-02-27',
    status: 'delivered',
    items: items(['backpack'], ['bottle']),
    carrier: 'UPS',
    shipped: '2026-02-28',
    delivered: '2026-03-03',
  }),
  order({
    id: 'A-1024',
    customer: 'C-1003',
    placed: '2026-03-02',
    status: 'delivered',
    items: items(['headphones']),
    carrier: 'BlueDart',
    shipped: '2026-03-03',
    delivered: '2026-03-08',
  }),
  order({ id: 'A-1055', customer: 'C-1004', placed: '2026-03-13', status: 'processing', items: items(['kettle']) }),
  order({
    id: 'A-1028',
    customer: 'C-1006',
    placed: '2026-03-03',
    status: 'delivered',
    items: items(['mug', 6]),
    carrier: 'Yamato',
    shipped: '2026-03-04',
    delivered: '2026-03-07',
  }),
  order({
    id: 'A-1041',
    customer: 'C-1007',
    placed: '2026-03-09',
    status: 'shipped',
    items: items(['runnersA'], ['socks']),
    carrier: 'DHL',
    shipped: '2026-03-10',
    eta: '2026-03-16',
  }),
];
