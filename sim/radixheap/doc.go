// Package radixheap is a radix heap (Ahuja, Mehlhorn, Orlin & Tarjan
// 1990): a priority queue for time keys that never go below the last key
// taken, as simulated time never does. The event engine runs every event
// through one, and the timeline's capacity sweep every rate change.
package radixheap
