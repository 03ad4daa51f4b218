import { Controller, Get } from '@nestjs/common';

interface Repository<T> {
  query(sql: string, params?: unknown[]): Promise<T[]>;
}

@Controller('users')
export class UserController {
  constructor(private readonly users: Repository<{ id: string }>) {}

  @Get(':id')
  find(id: string) {
    // ruleid: ts-controller-raw-query
    return this.users.query(`SELECT * FROM users WHERE id = '${id}'`);
  }

  @Get()
  all() {
    // ok: ts-controller-raw-query
    return this.users.query('SELECT * FROM users WHERE id = $1', ['1']);
  }
}

export class UserJob {
  constructor(private readonly users: Repository<{ id: string }>) {}

  purge(id: string) {
    // ok: ts-controller-raw-query
    return this.users.query(`DELETE FROM users WHERE id = '${id}'`);
  }
}

export function databaseUrl(): string {
  if (process.env.DATABASE_URL) {
    // ok: ts-non-null-env
    return process.env.DATABASE_URL!;
  }
  // ruleid: ts-non-null-env
  return process.env.FALLBACK_URL!;
}
