// localStorage for the engine (progress, settings) and other tabs' writes to it. The storage
// event fires only in the other tabs: a changed key is remembered until the next frame asks
// for it (the progress record is merged then). Importing this module adds the listener.
import { wake } from './page.js';
import { late, loadLateCode } from './late-code.js';

const changedKeys = new Set();
window.addEventListener('storage', (e) => {
  if (e.storageArea !== localStorage) return;
  changedKeys.add(e.key === null ? '*' : e.key);  // null: the storage was cleared
  wake();
});

export function storageGet(key) {
  try { return localStorage.getItem(key); } catch (e) { return null; }
}
export function storageSet(key, value) {
  // A full storage (QuotaExceededError) throws and leaves the key as it was.
  try { localStorage.setItem(key, value); return true; } catch (e) { return false; }
}
export function storageChanged(key) {
  const hit = changedKeys.has(key) || changedKeys.has('*');
  // Another tab's record is read by the engine's second part: kept until it is in.
  if (hit && late.split && late.state !== 'ready') { loadLateCode('another tab saved'); return false; }
  changedKeys.delete(key);
  changedKeys.delete('*');
  return hit;
}
