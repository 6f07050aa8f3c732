package podcast

// WordsPerMinute is a conversational speaking rate, slower than a narrator's
// reading pace.
const WordsPerMinute = 150

// EstimateSeconds is how long text takes to say at WordsPerMinute.
func EstimateSeconds(text string) float64 {
	return float64(countWords(text)) * 60 / WordsPerMinute
}

// MaxWords is the most words that fit in targetMinutes at WordsPerMinute;
// zero for a target that is not positive.
func MaxWords(targetMinutes float64) int {
	if targetMinutes <= 0 {
		return 0
	}
	return int(targetMinutes * WordsPerMinute)
}

// EstimatedSeconds is how long the whole script takes to say.
func (s Script) EstimatedSeconds() float64 {
	var seconds float64
	for _, turn := range s.Turns {
		seconds += EstimateSeconds(turn.Text)
	}
	return seconds
}
