package cast

// Word lists of English narration: speech verbs, honorifics and words that
// begin sentences. They hold no book's names.

// speechVerbs are the verbs of a speech tag, in the forms tags use.
var speechVerbs = setOf(
	"said", "says", "say", "saying", "asked", "asks", "ask", "cried", "cries", "replied", "replies",
	"shouted", "shouts", "whispered", "whispers", "thought", "thinks", "exclaimed", "exclaims",
	"answered", "answers", "began", "begins", "continued", "continues", "added", "adds",
	"remarked", "remarks", "muttered", "mutters", "repeated", "repeats", "observed", "observes",
	"called", "calls", "screamed", "screams", "sighed", "sighs", "interrupted", "interrupts",
	"returned", "returns", "pleaded", "pleads", "roared", "roars", "growled", "growls",
	"yelled", "yells", "inquired", "inquires", "enquired", "enquires", "murmured", "murmurs",
	"persisted", "insisted", "explained", "suggested", "echoed", "sobbed", "panted", "grunted",
	"declared", "concluded", "rejoined", "retorted", "faltered", "resumed", "urged", "protested",
	"shrieked", "squeaked", "thundered", "snapped", "stammered", "ventured", "demanded",
	"responded", "hissed", "gasped", "sang", "bawled", "grumbled", "moaned", "wailed", "groaned",
	"howled", "sneered", "scolded", "commanded", "ordered", "announced", "admitted", "agreed",
	"argued", "confessed", "corrected", "hinted", "objected", "pursued", "reasoned", "reflected",
	"reminded", "squealed", "stated", "stuttered", "whimpered", "wondered", "mused", "bellowed",
	"spoke", "laughed", "chuckled", "sniffed", "stormed", "breathed", "drawled", "murmured",
	"went", "goes", "go", "put", "broke", "chimed", "struck", "begun",
	"interposed", "assented", "greeted", "proceeded", "blurted", "remonstrated", "expostulated",
	"affirmed", "acknowledged", "assured", "conceded", "warned", "teased", "jeered", "entreated",
	"implored", "begged", "soothed", "volunteered", "queried", "pronounced", "vowed", "cautioned",
	"chided", "complained", "lamented", "boasted", "screeched", "piped", "lisped", "mumbled",
	"croaked", "spluttered", "sputtered", "snarled", "barked", "whined", "rejoins", "retorts",
	"interposes", "observes", "exclaimed", "assents", "recommenced", "recommended", "pleaded",
	"asking", "crying", "replying", "shouting", "whispering", "exclaiming", "answering",
	"adding", "remarking", "muttering", "continuing", "calling", "repeating", "observing",
)

// particleVerbs are verbs that are speech only with their particle
// ("went on", "put in"); the others may take one ("cried out").
var particleVerbs = map[string]string{
	"went": "on", "goes": "on", "go": "on", "put": "in", "broke": "in", "chimed": "in", "struck": "in",
}

// particles may follow any speech verb ("called out", "spoke up").
var particles = setOf("on", "out", "up", "in")

// strongVerbs name speech wherever they stand, even with no quotation
// beside them; extraction counts them across the narration.
var strongVerbs = setOf(
	"said", "asked", "cried", "replied", "shouted", "whispered", "exclaimed", "answered",
	"remarked", "muttered", "screamed", "shrieked", "inquired", "enquired",
)

// honorifics map a title that opens a name to the gender it implies. "The"
// names (the Queen, the Duchess) are judged by their head word through the
// same table.
var honorifics = map[string]string{
	"mr": "male", "mister": "male", "sir": "male", "lord": "male", "colonel": "male",
	"col": "male", "captain": "male", "capt": "male", "general": "male", "major": "male",
	"lieutenant": "male", "uncle": "male", "king": "male", "duke": "male", "prince": "male",
	"count": "male", "baron": "male", "master": "male", "monsieur": "male", "father": "male",
	"brother": "male", "rev": "male", "reverend": "male", "dr": "", "doctor": "", "professor": "",
	"mrs": "female", "miss": "female", "ms": "female", "lady": "female", "dame": "female",
	"aunt": "female", "queen": "female", "duchess": "female", "princess": "female",
	// Dialect and foreign forms of the same titles ("Mistah Frank",
	// "Signor Carella", "Herr Klesmer"): a title, not a given name.
	"mistah": "male", "mistuh": "male", "marse": "male", "mars": "male", "massa": "male",
	"signor": "male", "signore": "male", "herr": "male", "senor": "male", "don": "male",
	"missus": "female", "signora": "female", "signorina": "female", "frau": "female",
	"fraulein": "female", "senora": "female", "senorita": "female", "donna": "female",
	"countess": "female", "baroness": "female", "mistress": "female", "madame": "female",
	"mme": "female", "mademoiselle": "female", "mlle": "female", "mother": "female",
	"m":      "male", // "M. Riviere": Monsieur, as Mme and Mlle
	"sister": "female",
}

// surnameTitles go with a surname (Mr. Darcy is Fitzwilliam Darcy, not
// Colonel Fitzwilliam); the other honorifics go with a given name too
// (Lady Catherine, Sir William).
var surnameTitles = setOf("mr", "mister", "mrs", "ms", "miss", "dr", "doctor", "colonel", "col",
	"captain", "capt", "general", "major", "lieutenant", "professor", "rev", "reverend")

// genderedNouns say a gender when they head a name ("the Queen", "the Cook's
// husband" aside) or stand in a tag.
var genderedNouns = map[string]string{
	"man": "male", "gentleman": "male", "boy": "male", "husband": "male", "son": "male",
	"woman": "female", "girl": "female", "wife": "female", "daughter": "female",
}

// connectors may stand between the capitalised words of one name: "of"
// ("the King of Hearts") and the particles of surnames.
var connectors = setOf("of", "de", "van", "von", "du", "da", "le", "la", "del", "di", "der", "den", "della", "des", "ter", "ten")

// surnameParticles open a surname in lower case after a title: "Mr. van der
// Luyden", "Madame de Sévigné".
var surnameParticles = setOf("de", "van", "von", "du", "da", "le", "la", "del", "di", "der", "den", "della", "des", "ter", "ten")

// stopWords are capitalised at the start of a sentence but never a name:
// pronouns, function words, interjections, speech verbs.
var stopWords = setOf(
	"i", "he", "she", "it", "we", "they", "you", "me", "him", "her", "us", "them", "his", "hers",
	"its", "our", "their", "your", "my", "mine", "this", "that", "these", "those", "there", "here",
	"then", "now", "so", "but", "and", "or", "nor", "yet", "for", "if", "when", "while", "where",
	"what", "why", "how", "who", "whom", "whose", "which", "oh", "ah", "o", "well", "yes", "no",
	"not", "nay", "aye", "indeed", "perhaps", "still", "only", "just", "even", "again", "also",
	"at", "in", "on", "of", "to", "by", "with", "from", "as", "after", "before", "into", "upon",
	"a", "an", "the", "one", "some", "all", "any", "each", "every", "both", "either", "neither",
	"first", "last", "next", "soon", "presently", "suddenly", "however", "though", "although",
	"once", "never", "ever", "very", "quite", "do", "does", "did", "is", "was", "are", "were",
	"be", "been", "have", "has", "had", "will", "would", "shall", "should", "can", "could",
	"may", "might", "must", "let", "come", "go", "look", "see", "dear", "poor", "good", "why",
	"alas", "hush", "hallo", "hello", "hullo", "nonsense", "certainly", "sure", "thank", "thanks",
	"please", "pray", "mind", "chapter", "book", "volume", "part", "the", "end", "after",
	"everybody", "nobody", "somebody", "everyone", "someone", "nothing", "everything", "mamma",
	"papa", "god", "heaven", "lord", "english", "french", "monday", "tuesday", "wednesday",
	"thursday", "friday", "saturday", "sunday", "january", "february", "march", "april", "june",
	"july", "august", "september", "october", "november", "december",
)

// pronounGender maps a subject pronoun of a tag to the gender it names; "it"
// fits a character of no known gender.
var pronounGender = map[string]string{"he": "male", "she": "female", "it": ""}

// tagPronouns are the pronouns a speech tag may have for subject: "i"
// ("said I", "I answered") is the first-person narrator.
var tagPronouns = setOf("he", "she", "it", "i")

// epithets may stand between an inverted tag's verb and the name: "thought
// poor Alice", "cried little Tom".
var epithets = setOf("poor", "little", "old", "young", "dear", "good", "kind", "wise", "silly",
	"foolish", "brave", "gentle", "honest", "pretty")

// blockers after a speech verb say no speech followed ("said nothing").
var blockers = setOf("nothing", "not", "no", "never")

// prepositions before a name make it the object, not the subject, of a
// before-tag ("Turning to Alice, the Hatter said").
var prepositions = setOf("to", "at", "with", "of", "from", "by", "upon", "on", "towards",
	"toward", "about", "after", "behind", "beside", "like", "than", "into", "over", "under")

func setOf(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}
