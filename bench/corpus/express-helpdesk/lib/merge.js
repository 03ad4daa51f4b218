'use strict'
// Deep merge used for user preferences (nested objects are merged, arrays replaced).

function deepMerge(target, source) {
  for (const key of Object.keys(source)) {
    const value = source[key]
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      if (!target[key]) target[key] = {}
      deepMerge(target[key], value)
    } else {
      target[key] = value // vuln: prototype-pollution [deep-merge]
    }
  }
  return target
}

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype'])

function safeMerge(target, source) {
  for (const key of Object.keys(source)) {
    if (FORBIDDEN_KEYS.has(key)) continue
    const value = source[key]
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      if (!Object.prototype.hasOwnProperty.call(target, key)) target[key] = {}
      safeMerge(target[key], value)
    } else {
      target[key] = value // safe: prototype-pollution
    }
  }
  return target
}

function setPath(obj, path, value) {
  const parts = path.split('.')
  let node = obj
  for (let i = 0; i < parts.length - 1; i++) {
    node[parts[i]] = node[parts[i]] || {}
    node = node[parts[i]]
  }
  node[parts[parts.length - 1]] = value // vuln: prototype-pollution [set-path]
  return obj
}

module.exports = { deepMerge, safeMerge, setPath }
