import escapeHtml from 'escape-html';
import type { Request, Response } from 'express';

export function greet(req: Request, res: Response): void {
  const name = req.query.name as string;
  // ruleid: ts-express-xss
  res.send(`<h1>Hello ${name}</h1>`);
}

export function greetEscaped(req: Request, res: Response): void {
  const name = escapeHtml(req.query.name as string);
  // ok: ts-express-xss
  res.send(`<h1>Hello ${name}</h1>`);
}

export function tags(req: Request, res: Response): void {
  const items: string[] = [];
  items.push(req.params.tag);
  // ruleid: ts-express-xss
  res.send(`<ul><li>${items.join('</li><li>')}</li></ul>`);
}

export function fixedTags(req: Request, res: Response): void {
  const items: string[] = [];
  items.push('news');
  // ok: ts-express-xss
  res.send(`<ul><li>${items.join('</li><li>')}</li></ul>`);
}

export function status(req: Request, res: Response): void {
  res.status(400);
  // ok: ts-express-xss
  res.send({ error: 'bad request' });
}
