package magazine

import (
	"encoding/json"
	"slices"
)

// ChangedRegions is the ids of the regions an edit of a page changed in any
// way (text, box, kind, description, crop) or removed.
func ChangedRegions(before, after Page) []string {
	now := map[string][]byte{}
	for _, r := range after.Regions {
		now[r.ID], _ = json.Marshal(r)
	}
	var out []string
	for _, r := range before.Regions {
		was, _ := json.Marshal(r)
		if is, ok := now[r.ID]; !ok || string(is) != string(was) {
			out = append(out, r.ID)
		}
	}
	return out
}

// FollowApproval withdraws an article's approval when a change touched it:
// its title or region or image list was edited, or one of the regions it
// held (before the change) changed or went away. The article is then marked
// changed since approval until it is approved again. before is the article
// as stored before the change; changed says whether a region changed.
func FollowApproval(before, after Article, changed func(RegionRef) bool) (Article, bool) {
	if !before.Approved || !after.Approved {
		return after, false
	}
	touched := before.Title != after.Title || !slices.Equal(before.Regions, after.Regions) || !slices.Equal(before.Images, after.Images) ||
		slices.ContainsFunc(before.Regions, changed) || slices.ContainsFunc(before.Images, changed)
	if !touched {
		return after, false
	}
	after.Approved, after.ChangedSinceApproval = false, true
	return after, true
}
