package ear

import "strings"

// Split shares out heard, the words heard in pieces of audio played one
// after another, among the pieces, which should say wants: it aligns the
// words heard with the words wanted (the alignment WER counts) and gives
// each word heard to the piece whose word it stands for. A word heard
// where none was wanted goes with the piece before it; a piece whose words
// were not heard gets none. Words are answered as heard, case and
// punctuation kept.
//
// Hearing a window of pieces at once and splitting it so costs one
// encoder pass of Whisper per 30 s, where timing every word would cost a
// second pass over the tail of most windows and an alignment.
func Split(wants []string, heard string) []string {
	out := make([]string, len(wants))
	if len(wants) <= 1 {
		if len(wants) == 1 {
			out[0] = strings.TrimSpace(heard)
		}
		return out
	}
	// The wanted words, each with its piece.
	var ref []string
	var piece []int
	for i, w := range wants {
		for _, t := range Words(w) {
			ref = append(ref, t)
			piece = append(piece, i)
		}
	}
	// The heard words as compared, each with the raw word it came from.
	raw := strings.Fields(heard)
	var hyp []string
	var from []int
	for i, w := range raw {
		for _, t := range Words(w) {
			hyp = append(hyp, t)
			from = append(from, i)
		}
	}
	// Edit distances d[i][j] of ref[:i] and hyp[:j], then the way back.
	n, m := len(ref), len(hyp)
	d := make([][]int32, n+1)
	for i := range d {
		d[i] = make([]int32, m+1)
		d[i][0] = int32(i)
	}
	for j := 0; j <= m; j++ {
		d[0][j] = int32(j)
	}
	for i := 1; i <= n; i++ {
		for j := 1; j <= m; j++ {
			sub := d[i-1][j-1]
			if ref[i-1] != hyp[j-1] {
				sub++
			}
			d[i][j] = min(sub, d[i-1][j]+1, d[i][j-1]+1)
		}
	}
	// owner[j] is the piece of hyp[j]: the piece of the wanted word it
	// matches or replaces, or, inserted, of the wanted word before it.
	owner := make([]int, m)
	for i, j := n, m; j > 0; {
		switch {
		case i > 0 && d[i][j] == d[i-1][j-1]+cost(ref[i-1], hyp[j-1]):
			owner[j-1] = piece[i-1]
			i, j = i-1, j-1
		case i > 0 && d[i][j] == d[i-1][j]+1:
			i--
		default:
			if i > 0 {
				owner[j-1] = piece[i-1]
			}
			j--
		}
	}
	// A raw word goes with its first compared word; one without any (a
	// dash) with the word before it.
	words := make([][]string, len(wants))
	k, cur := 0, 0
	for i, w := range raw {
		if k < m && from[k] == i {
			cur = owner[k]
		}
		for k < m && from[k] == i {
			k++
		}
		words[cur] = append(words[cur], w)
	}
	for i, ws := range words {
		out[i] = strings.Join(ws, " ")
	}
	return out
}

func cost(a, b string) int32 {
	if a == b {
		return 0
	}
	return 1
}
