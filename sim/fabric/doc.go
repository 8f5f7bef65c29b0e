// Package fabric moves bytes over a topology's links.
//
// The model, chosen because it is exact for the α–β cost formulas the
// collectives are checked against: each directed link carries one message at
// a time, first come first served, and a message holds its link for
// α + S/B (the link's latency plus its size over the link's bandwidth).
// Messages that want the same link queue; the two directions of a cable are
// independent links. Only direct links are routed so far.
package fabric
