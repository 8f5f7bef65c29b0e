package scenario

import "paraplay/sim/cluster"

// slice is the cluster's TPU slice of the given shape.
func (s *Scenario) slice(shape [3]int) cluster.Slice {
	c := s.Cluster
	return cluster.Slice{TPU: c.GPU, Shape: shape, Slices: max(c.Slices, 1), Twisted: c.Twisted, NoWrap: c.Wraparound == "none"}
}

// Slice is the scenario's TPU slice (cluster.topology and the keys beside
// it), and whether it has one; s must be valid.
func (s *Scenario) Slice() (cluster.Slice, bool) {
	if s.Cluster.Topology == "" {
		return cluster.Slice{}, false
	}
	shape, _ := cluster.ParseShape(s.Cluster.Topology)
	return s.slice(shape), true
}

// splitKey splits "key: message" into the key and the message.
func splitKey(msg string) (string, string) {
	for i := 0; i+1 < len(msg); i++ {
		if msg[i] == ':' && msg[i+1] == ' ' {
			return msg[:i], msg[i+2:]
		}
	}
	return "topology", msg
}
