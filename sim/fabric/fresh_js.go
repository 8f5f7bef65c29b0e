//go:build js

package fabric

// The browser build has no fresh flows (fresh.go): every flow's links go
// into the dirty list.

func (n *Network) freshAlone(path []int) bool { return false }

func (n *Network) visitDirty() bool {
	for _, id := range n.dirty {
		n.visitLink(id)
	}
	n.dirty = n.dirty[:0]
	return false
}

func (n *Network) freshFlow(id int) *Message { return nil }

func (n *Network) dropFresh() {}
