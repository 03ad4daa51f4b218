import { Component } from '@angular/core';
import { DomSanitizer, SafeHtml } from '@angular/platform-browser';
import type { Request } from 'express';

class Formatter {
  bypassSecurityTrustHtml(value: string): string {
    return value;
  }
}

@Component({ selector: 'app-comment', template: '<div [innerHTML]="html"></div>' })
export class CommentComponent {
  html: SafeHtml | string = '';

  constructor(private sanitizer: DomSanitizer, private formatter: Formatter) {}

  show(comment: string): void {
    // ruleid: ts-dom-sanitizer-bypass
    this.html = this.sanitizer.bypassSecurityTrustHtml(comment);
    // ok: ts-dom-sanitizer-bypass
    this.html = this.formatter.bypassSecurityTrustHtml(comment);
  }

  preview(sanitizer: DomSanitizer, comment: string): SafeHtml {
    // ruleid: ts-dom-sanitizer-bypass
    return sanitizer.bypassSecurityTrustHtml(comment);
  }
}

export function payload(req: Request, other: { body: unknown }): unknown[] {
  return [
    // ruleid: ts-any-request-body
    req.body as any,
    // ok: ts-any-request-body
    other.body as any,
  ];
}
