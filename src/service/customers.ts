import type { Customer } from '../workapi/contract.js';
import { type Db, sql } from './db.js';
import { newId } from './new-ids.js';
import { nowIso } from './time.js';

export interface NewCustomer {
  companyName: string;
  firstName?: string;
  lastName?: string;
  email?: string;
  phone?: string;
  address?: string;
  clients?: { name: string; email?: string }[];
}

export function createCustomer(db: Db, workspaceId: string, c: NewCustomer): string {
  const id = newId();
  sql(
    db,
    `INSERT INTO customers (id, workspace_id, company_name, first_name, last_name, email, phone,
                            address, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    id,
    workspaceId,
    c.companyName,
    c.firstName ?? '',
    c.lastName ?? '',
    c.email ?? '',
    c.phone ?? '',
    c.address ?? '',
    nowIso(),
  );
  const addClient = sql(
    db,
    'INSERT INTO customer_clients (id, customer_id, name, email, position) VALUES (?, ?, ?, ?, ?)',
  );
  (c.clients ?? []).forEach((client, i) => {
    addClient.run(newId(), id, client.name, client.email ?? '', i);
  });
  return id;
}

export function customerExists(db: Db, workspaceId: string, customerId: string): boolean {
  return (
    sql(db, 'SELECT 1 FROM customers WHERE id = ? AND workspace_id = ?').get(
      customerId,
      workspaceId,
    ) !== undefined
  );
}

interface CustomerRow {
  id: string;
  company_name: string;
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  address: string;
}

/** Operation 12: the workspace's customers with their clients, by company name. */
export function listCustomers(db: Db, workspaceId: string): Customer[] {
  const rows = sql<CustomerRow>(
    db,
    `SELECT id, company_name, first_name, last_name, email, phone, address
       FROM customers WHERE workspace_id = ? ORDER BY company_name, id`,
  ).all(workspaceId);
  const clients = sql<{ id: string; name: string; email: string }>(
    db,
    'SELECT id, name, email FROM customer_clients WHERE customer_id = ? ORDER BY position',
  );
  return rows.map((r) => ({
    customerId: r.id,
    address: r.address,
    firstName: r.first_name,
    lastName: r.last_name,
    email: r.email,
    companyName: r.company_name,
    phone: r.phone,
    clients: clients.all(r.id).map((c) => ({ clientId: c.id, name: c.name, email: c.email })),
  }));
}
