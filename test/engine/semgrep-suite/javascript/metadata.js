function show(banner) {
  // ruleid: js-debugger-statement
  debugger;
  // ruleid: js-document-write
  document.write(banner.html);
}
