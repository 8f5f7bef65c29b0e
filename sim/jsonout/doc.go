// Package jsonout writes JSON in the bytes encoding/json gives, without
// reflection, for the few shapes the browser app hands its page and the
// Chrome trace holds: strings escaped as json.Marshal escapes them, floats
// in its shortest form, and compact objects and arrays built a key or an
// element at a time (Writer).
//
// It exists for the download: encoding/json, with the reflection it keeps
// alive, was about 80 KB of the gzipped wasm, and the app writes only a
// handful of flat records. The tests hold every function to encoding/json's
// output, byte for byte, on the values the app writes and on fuzzed ones.
package jsonout
