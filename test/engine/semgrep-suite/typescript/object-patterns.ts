import * as jwt from 'jsonwebtoken';

export function check(token: string, key: string): unknown[] {
  return [
    // ruleid: ts-jwt-none-algorithm
    jwt.verify(token, key, { algorithms: ['HS256', 'none'] }),
    // ruleid: ts-jwt-none-algorithm
    jwt.verify(token, key, { ignoreExpiration: true }),
    // ok: ts-jwt-none-algorithm
    jwt.verify(token, key, { algorithms: ['HS256'] }),
  ];
}
