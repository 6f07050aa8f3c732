// GENERATED FILE — do not edit. openapi-typescript (the version pinned in
// package.json) made it from shared/httpapi/openapidoc/openapi.json. After an API
// change: go test ./shared/app -run OpenAPISnapshot -update, then
// npm run gen:api (in frontend/). npm run check fails while it is stale.

export interface paths {
    "/api/attribute-spans": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Cast a book with the LLM from Settings as a background job (follow it at status_url). mode span (default): the LLM names the speaker of each dialogue span the rules left, at most 40 spans and 150 prompt tokens per span on average a request; an explicit tag and a speaker set by hand are never replaced. mode classic: the LLM segments the text itself and auto-repair aligns its segments to the source, reporting what it fused, dropped or invented. verify: a second pass with other windows marks each line agreed or disputed (the other answer kept) and changes no speaker. No LLM configured answers 409; a cast of the book already running answers 409 */
        post: operations["attribute-spans"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/audiobook/books": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The books, newest first */
        get: operations["list-books"];
        put?: never;
        /** Upload a book (TXT in UTF-8 or Latin-1, or EPUB; at most 4194304 bytes). What is cheap and certain is checked at once: an empty, binary or oversized file, a broken EPUB or one whose zip directory or spine is over the limits answers 413 or 422 and stores nothing. Otherwise the answer is 202 with the book in status importing and Location naming it: the import job splits it into narration and dialogue spans from its quotation marks, finds its cast and names the speakers its text shows by rules, with no LLM; the book then turns ready, or failed with its error (a text over the limit, found only once unpacked) */
        post: operations["upload-book"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/audiobook/books/{book}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A book: title, author, chapters with their segment counts, the cast with voices, the narrator's voice, the revision, and the state of its last cast and render jobs */
        get: operations["get-book"];
        put?: never;
        post?: never;
        /** Delete a book with its segments, cast, text and renders; a second delete answers 404 */
        delete: operations["delete-book"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/audiobook/books/{book}/cast": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A book's characters (name, aliases, gender, lines spoken, voice), most lines first, and the narrator's voice */
        get: operations["get-book-cast"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/audiobook/books/{book}/cast/{character}/gender": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Set a character's gender (female, male, or empty for unknown): pronoun tags ("said she") are resolved again. The lines are attributed again by rules with the edited cast: a line set by hand keeps its speaker, an LLM answer is kept while its speaker is in the cast and no explicit tag now names another. Needs the book's revision in If-Match (another answers 409 and changes nothing); refused with 409 while a cast job runs. */
        put: operations["set-character-gender"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/audiobook/books/{book}/cast/{character}/merge": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Merge another character into this one: its name and aliases become aliases, its lines this character's; this character keeps its voice (else takes the other's). The lines are attributed again by rules with the edited cast: a line set by hand keeps its speaker, an LLM answer is kept while its speaker is in the cast and no explicit tag now names another. Needs the book's revision in If-Match (another answers 409 and changes nothing); refused with 409 while a cast job runs. */
        post: operations["merge-book-characters"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/audiobook/books/{book}/cast/{character}/name": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Rename a character; the old name stays as an alias and its lines follow. A name another character holds answers 422. The lines are attributed again by rules with the edited cast: a line set by hand keeps its speaker, an LLM answer is kept while its speaker is in the cast and no explicit tag now names another. Needs the book's revision in If-Match (another answers 409 and changes nothing); refused with 409 while a cast job runs. */
        put: operations["rename-book-character"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/audiobook/books/{book}/cast/{character}/split": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Split one of a character's aliases off as a character of its own (same gender until changed, no voice): lines tagged with that name become its lines. The lines are attributed again by rules with the edited cast: a line set by hand keeps its speaker, an LLM answer is kept while its speaker is in the cast and no explicit tag now names another. Needs the book's revision in If-Match (another answers 409 and changes nothing); refused with 409 while a cast job runs. */
        post: operations["split-character-alias"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/audiobook/books/{book}/cast/{character}/voice": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Set the voice a character speaks in; a voice the library lacks answers 422 */
        put: operations["set-character-voice"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/audiobook/books/{book}/narrator": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Set the narrator's voice (narration, and characters without a voice); a voice the library lacks answers 422 */
        put: operations["set-narrator-voice"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/audiobook/books/{book}/render": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The book's last render: status, progress, and the files made so far with their download URLs */
        get: operations["get-book-render"];
        put?: never;
        /** Voice the book as a background job: one M4B with a chapter per book chapter, then an MP3 per chapter; each line in its speaker's voice, narration and characters without a voice in the narrator's (required). A crash resumes without speaking again what was spoken. With chapter, only that chapter's MP3 is made, replacing the last render's (its other files stay) */
        post: operations["start-book-render"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/audiobook/books/{book}/render/audio": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The book's M4B (redirect to a short-lived URL); 409 until the render made it */
        get: operations["get-book-audio"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/audiobook/books/{book}/render/chapters/{chapter}/audio": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A chapter's MP3 (redirect to a short-lived URL); 409 until the render made it */
        get: operations["get-book-chapter-audio"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/audiobook/books/{book}/render/chapters/{chapter}/timings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Where each sentence of a chapter's MP3 starts and ends, for a player; 409 until the render made it */
        get: operations["get-book-chapter-timings"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/audiobook/books/{book}/segments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A page of a book's segments in text order, with their text: spanId (span mode), kind, offsets, speaker and how it was found, the verification mark, the other answer of a disputed line, the confidence and the unclosed flag; filter by chapter or disputed=1; sort=confidence lists the least certain lines first */
        get: operations["list-book-segments"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/audiobook/books/{book}/segments/{segment}/speaker": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Set a dialogue line's speaker by hand (a name, alias or id of the cast), on the book's revision in If-Match (another answers 409 and changes nothing). Later casts keep it; the verify pass never overrules it */
        put: operations["set-segment-speaker"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/audiobook/books/{book}/voice-suggestions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Voices of the library proposed for the narrator and each character, best first: by gender, then age (guessed from the name), then English; each character's first proposal differs from the others' while the library has enough */
        get: operations["suggest-book-voices"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/builtin-engines": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The offline engines that work without any engine card (PDF text layer, Tesseract, espeak-ng, Piper, the Whisper ear, ffmpeg): found or missing, with their versions, checked when asked on the server that answers */
        get: operations["list-builtin-engines"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/characters": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The sets of characters, newest first */
        get: operations["list-character-sets"];
        put?: never;
        /** Extract the characters of a book (book_id, a book of the audiobook feature) or of pasted text as a background job: name, aliases, role, and the physical, clothing and age details the text states, each with the passages it came from. With an LLM in Settings the LLM refines the cast and reads the facts (never an image prompt); without one, rules read the narration near each name. Each character gets a base form whose prompts are built deterministically */
        post: operations["extract-characters"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/characters/prompts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Build the deterministic prompts of unsaved form inputs, and their fingerprint (the browser computes the same fingerprint); nothing is stored */
        post: operations["preview-character-prompts"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/characters/{set}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A set with its characters, most mentioned first (none while it is extracting) */
        get: operations["get-character-set"];
        put?: never;
        post?: never;
        /** Delete a set with its characters and images */
        delete: operations["delete-character-set"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/characters/{set}/{character}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One character: facts with their passages, overrides, forms with their prompts, fingerprint, images, stale flag and review */
        get: operations["get-character"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Edit a character: role, age, visual_* overrides, the active form, and the active form's physical and clothing descriptions (active_form, when sent, is applied first). Prompts and fingerprints are rebuilt; a form whose images were made with other inputs is marked stale. With If-Match, a character changed since answers 409 */
        patch: operations["edit-character"];
        trace?: never;
    };
    "/api/characters/{set}/{character}/forms": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Add an appearance form (its descriptions copied from the active form where left empty); it becomes the active form */
        post: operations["add-character-form"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/characters/{set}/{character}/forms/{form}/images": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Generate images of a form with its deterministic prompts as a background job, through an image engine card: avatar (alone: it flags the pair it breaks), concept, pair (avatar then concept, a matched pair), turnaround (a character sheet) or story (a chosen passage). Concept, turnaround and story images are edits with the avatar as reference; an engine that answers 405 to the edit or the character-sheet call is asked for a generation instead, and the image's note says so */
        post: operations["generate-character-image"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/characters/{set}/{character}/forms/{form}/images/{image}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A form's image as PNG (redirect to a short-lived URL) */
        get: operations["get-character-image"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/characters/{set}/{character}/forms/{form}/review": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Review a form's own image pair as a background job: avatar and concept image present and drawn, made together, made with the form's current inputs. After the portrait passes, the vision engine from Settings describes its hair, facial hair and eyes, and the turnaround and story prompts are rebuilt from that description */
        post: operations["review-character-form"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/engines": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Engine cards with the URL each will use and whether it has its own key */
        get: operations["list-engine-cards"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/engines/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Create or replace an engine card (its key is saved in settings.engine_api_keys) */
        put: operations["put-engine-card"];
        post?: never;
        /** Delete an engine card */
        delete: operations["delete-engine-card"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/engines/{name}/connect": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** List the engine's models with the key the server resolves (the card's own, else llm_api_key) */
        post: operations["connect-engine"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/engines/{name}/restart": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Container restart through the Docker Engine API of the card's host; answers the status after */
        post: operations["restart-engine"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/engines/{name}/start": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Container start through the Docker Engine API of the card's host; answers the status after */
        post: operations["start-engine"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/engines/{name}/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The card's container: running, stopped, restarting, unhealthy or not-installed */
        get: operations["get-engine-status"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/engines/{name}/stop": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Container stop through the Docker Engine API of the card's host; answers the status after */
        post: operations["stop-engine"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/engines/{name}/use-as-llm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Make this card the LLM: llm_url (ending in one /v1) and llm_api_key are copied from it; llm_model is the card's model, else the first model the engine lists, else cleared (model_choice says which and why) */
        post: operations["use-engine-as-llm"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Report that the server is up */
        get: operations["health"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/jobs/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A background job's status, progress, message, error and result; poll with If-None-Match (304 while unchanged) */
        get: operations["get-job"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/magazine": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List issues, newest first */
        get: operations["list-issues"];
        put?: never;
        /** Upload a magazine PDF and start ingest (local mode; in AWS use /api/magazine/uploads) */
        post: operations["upload-issue"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/magazine/uploads": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create an issue and a presigned upload form for its PDF, bounded by the size limit; the upload starts ingest (AWS mode) */
        post: operations["presign-issue-upload"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/magazine/{doc}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An issue with status, progress (pages done of total, current step) and errors per page; poll with If-None-Match */
        get: operations["get-issue"];
        put?: never;
        post?: never;
        /** Delete an issue with all its records and files (page renders, thumbnails, crops, the PDF); 409 while it is being ingested (cancel it first) or its upload URL is still valid */
        delete: operations["delete-issue"];
        options?: never;
        head?: never;
        /** Rename an issue (in any state) */
        patch: operations["rename-issue"];
        trace?: never;
    };
    "/api/magazine/{doc}/articles": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An issue's articles, in the order the issue prints them */
        get: operations["list-articles"];
        put?: never;
        /** Group regions into a new article */
        post: operations["create-article"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/magazine/{doc}/articles/{article}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete an article (its regions stay) */
        delete: operations["delete-article"];
        options?: never;
        head?: never;
        /** Rename an article, or replace its ordered regions or its image list */
        patch: operations["update-article"];
        trace?: never;
    };
    "/api/magazine/{doc}/articles/{article}/approve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Approve with the region and image ids shown; a vanished id fails naming it, a stale image list is refused */
        post: operations["approve-article"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/magazine/{doc}/articles/{article}/describe": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Describe the article's pictures that have no description (all with redo) as one background job reporting n of m; a picture that fails is recorded and the others go on. The job's result (GET /api/jobs/{id}) lists each picture's outcome: described (with the engine), empty (the engine returned no content: nothing stored), kept (the picture was edited meanwhile; the edit wins) or failed (why). */
        post: operations["describe-article"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/magazine/{doc}/articles/{article}/listen": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Narrate an approved article as a speech render (its id works with /api/speech/renders/{id}, /chunks and /audio): the title as the first sentence, then the text, pictures' descriptions only when asked; the byline is the file's artist. An article not approved, or changed since it was, answers 409 */
        post: operations["listen-article"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/magazine/{doc}/articles/{article}/podcast": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An article's podcast record: the script (title, hosts, turns), where it came from, its grounding violations, its length, and the last generation's error; 404 before any */
        get: operations["get-podcast-script"];
        /** Replace the script's turns (and, optionally, hosts) with an edit made on the version in If-Match (another version answers 409). The grounding check runs again and its violations are stored: an edited script is flagged, never refused. At most 400 turns of 4000 bytes, 200000 bytes in all */
        put: operations["edit-podcast-script"];
        /** Write the two hosts' script of an approved article as a background job. mode llm: the LLM from Settings writes it, grounded in the article; a script with invented numbers, names or quotations is asked for again (at most 3 calls) and, if every answer has some, the best is stored flagged. A script more than 15% over the minutes is cut at a turn boundary, keeping its closing. mode deterministic: the hosts read the paragraphs in turn. The script is stored on the article's podcast record (GET it); an LLM failure fails the job and is recorded there, keeping the previous script, and an edit saved while the job runs is kept (the job fails saying so) */
        post: operations["start-podcast-script"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/magazine/{doc}/articles/{article}/podcast/voice": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Voice the stored podcast script as a speech render: one chapter whose segments are the turns, each in its host's voice */
        post: operations["voice-podcast"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/magazine/{doc}/articles/{article}/proposal": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Accept, split, merge or dissolve a proposed article */
        post: operations["review-proposal"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/magazine/{doc}/articles/{article}/text": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The article's text in order; descriptions=1 adds figure descriptions where the figures occur; format=markdown or html writes tables as tables */
        get: operations["article-text"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/magazine/{doc}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Stop an issue's ingest for good (the in-process job locally, the Step Functions execution in AWS) and mark it failed, step cancelled; the pages read before are kept and the issue can then be deleted. 409 when its ingest has ended, or while its upload URL is still valid */
        post: operations["cancel-ingest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/magazine/{doc}/describe": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Describe every picture of the issue that has no description (all with redo) as one background job reporting n of m; a picture that fails is recorded and the others go on. The job's result (GET /api/jobs/{id}) lists each picture's outcome: described (with the engine), empty (the engine returned no content: nothing stored), kept (the picture was edited meanwhile; the edit wins) or failed (why). */
        post: operations["describe-issue"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/magazine/{doc}/figures/refine": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Re-derive figure boundaries and crops for an existing issue without OCR, as a background job reporting "refining page n of m". Each changed page is stored by a conditional change (an edit made meanwhile is kept and the page derived again), boxes placed by hand are left alone, and the stored undo point is cleared. The job's result (GET /api/jobs/{id}) says which pages changed: pages_changed, pages, revision, undo_cleared */
        post: operations["refine-figures"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/magazine/{doc}/fix-order": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Fix reading order: re-read the pages' order without OCR, skipping hand-ordered pages; no page list (no body, {} or no pages) fixes the whole issue */
        post: operations["fix-reading-order"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/magazine/{doc}/images/{image_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Set a picture's description by hand: one or two sentences; "" clears it. Text regions have none (422); with If-Match, a page changed since answers 409 */
        patch: operations["patch-image"];
        trace?: never;
    };
    "/api/magazine/{doc}/images/{image_id}/describe": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Describe one picture as a background job: its stored crop goes to the vision engine (primary, then fallback) with a prompt chosen by its visual kind; the answer, one or two sentences, replaces its description. A failure of every engine fails the job with the reason. The job's result (GET /api/jobs/{id}) lists each picture's outcome: described (with the engine), empty (the engine returned no content: nothing stored), kept (the picture was edited meanwhile; the edit wins) or failed (why). */
        post: operations["describe-image"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/magazine/{doc}/listen": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Narrate every approved article of an issue as one speech render, a chapter per article (titled with it) in the order the issue prints them; an issue without an approved article answers 409 */
        post: operations["listen-issue"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/magazine/{doc}/pages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An issue's pages with their step, engine and thumbnail link */
        get: operations["list-pages"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/magazine/{doc}/pages/{page}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A page: regions (kind, bbox, text, original_text), reading order, engine, version, render link */
        get: operations["get-page"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/magazine/{doc}/pages/{page}/cleanup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Clean up boxes on demand (a layout backup is taken first) */
        post: operations["cleanup-page"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/magazine/{doc}/pages/{page}/cleanup/restore": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Restore the layout saved before the last cleanup on demand */
        post: operations["restore-page-backup"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/magazine/{doc}/pages/{page}/crops/{region}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A picture region's exact crop of the render (redirect to a short-lived URL) */
        get: operations["get-region-crop"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/magazine/{doc}/pages/{page}/image": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The page render (redirect to a short-lived URL) */
        get: operations["get-page-image"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/magazine/{doc}/pages/{page}/order": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Set the reading order by hand (ids in order: typed positions or a click sequence); the page becomes hand-ordered */
        put: operations["set-page-order"];
        post?: never;
        /** Automatic order: recompute the page's reading order and unlock it */
        delete: operations["auto-page-order"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/magazine/{doc}/pages/{page}/preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The live preview of a page: escaped HTML, pictures as placeholders, at most 60 lines; poll with If-None-Match */
        get: operations["get-page-preview"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/magazine/{doc}/pages/{page}/recognize": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Read a page (or one text region) again with one chosen engine; a page's regions are replaced, undoably. An engine that fails or finds nothing changes nothing */
        post: operations["recognize-page"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/magazine/{doc}/pages/{page}/regions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Draw a new box; a text box is read from the render */
        post: operations["add-region"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/magazine/{doc}/pages/{page}/regions/bulk": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Delete or re-type a selected set of regions under one undo token */
        post: operations["bulk-regions"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/magazine/{doc}/pages/{page}/regions/{block_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a region and its membership in every article; a second delete answers 404 */
        delete: operations["delete-region"];
        options?: never;
        head?: never;
        /** Move or resize a region (optionally re-reading the corrected area), edit its text, kind or description; box and kind changes return an undo token */
        patch: operations["patch-region"];
        trace?: never;
    };
    "/api/magazine/{doc}/pages/{page}/regions/{block_id}/merge-next": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Merge the region read next into this one */
        post: operations["merge-region-next"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/magazine/{doc}/pages/{page}/regions/{block_id}/split": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Split a text region at a character offset (the cursor); article membership follows */
        post: operations["split-region"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/magazine/{doc}/pages/{page}/regions/{block_id}/table": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Change a table region's cells: set a cell's text, insert or delete a row or column, set how many rows are headings, or set the caption; the region's text follows its cells; returns the region and an undo token. A region that is not a table, or a position outside the grid, answers 422 */
        patch: operations["edit-table"];
        trace?: never;
    };
    "/api/magazine/{doc}/pages/{page}/thumbnail": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The page thumbnail (redirect to a short-lived URL) */
        get: operations["get-page-thumbnail"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/magazine/{doc}/pages/{page}/view": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A part of a page drawn from its PDF at a chosen resolution (PNG): a zoomed view stays sharp. The area is cut to the page; an area off the page, or one over 16000000 pixels drawn, answers 422 */
        get: operations["get-page-view"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/magazine/{doc}/propose-articles": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Propose the issue's articles afresh from its headlines (replaces the proposals; accepted and hand-made articles stay) */
        post: operations["propose-articles"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/magazine/{doc}/undo": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Undo the last change with its token; 409 when anything else changed since */
        post: operations["undo"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read this instance's settings (saved keys answer __configured__) */
        get: operations["get-settings"];
        /** Change settings; a key sent as __configured__ is kept, an empty key is cleared */
        put: operations["put-settings"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/speech/renders": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Render a text (or its chapters) in a library voice to MP3 or M4B with chapters, loudness-normalised, as a background job; chunks already spoken with the same engine, voice, text and speed come from the cache */
        post: operations["start-speech-render"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/speech/renders/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A render's status and progress; once it succeeded, its audio URL and every sentence's timing by chapter */
        get: operations["get-speech-render"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/speech/renders/{id}/audio": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A finished render's audio (redirect to a short-lived URL that serves audio/mp4 or audio/mpeg with Range support); 409 while it runs */
        get: operations["get-speech-render-audio"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/speech/renders/{id}/chunks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A render's chunks (sentences, or pieces of long ones) that are spoken so far, in order from an index, each with a short-lived URL of its WAV: a player can start on chunk 0 while the rest is being spoken, and ask again from 'next' */
        get: operations["list-speech-render-chunks"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/version": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Report the release version */
        get: operations["version"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/voice-library": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Store protocol: one page of the voices a search selects, as GET /api/voices answers it */
        get: operations["search-voice-library"];
        put?: never;
        /** Store protocol: add a voice record at version 1 (409 when the id is taken) */
        post: operations["create-library-voice"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/voice-library/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Store protocol: add the voice records whose id is absent and answer how many; one bad record adds none */
        post: operations["import-library-voices"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/voice-library/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Store protocol: read one voice record */
        get: operations["get-library-voice"];
        /** Store protocol: replace the voice record whose stored version is the one sent, answering it at the next version (409 stale, 404 gone) */
        put: operations["update-library-voice"];
        post?: never;
        /** Store protocol: remove a voice record, built-in ones too (409 stale, 404 gone) */
        delete: operations["delete-library-voice"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/voices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Search the shared voice library: text over name, description and tags, filters, pages */
        get: operations["search-voices"];
        put?: never;
        /** Add a voice an engine has (source engine or design) under a new id */
        post: operations["create-voice"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/voices/clone": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Clone a voice from 5-60 s of the speaker (with their consent confirmed) on a TTS engine that can clone; the recording is kept with the voice */
        post: operations["clone-voice"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/voices/default": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The voice read-aloud, podcasts and audiobook narration speak in until the user picks another: the neural voice (Piper) where this instance has it, else espeak-ng's, with the reason */
        get: operations["default-voice"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/voices/design": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Design voices from a description: candidate voices, each with a sample to listen to (valid for an hour); save one with /api/voices/design/save */
        post: operations["design-voice"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/voices/design/save": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Keep one designed voice in the library */
        post: operations["save-designed-voice"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/voices/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Import an engine's voices: a TTS card's GET /v1/audio/voices where it offers one, else OpenAI's voice names; espeak-ng's list for espeak-ng. Voices it no longer lists are removed */
        post: operations["import-voices"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/voices/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read one voice */
        get: operations["get-voice"];
        /** Add the voice under this id (201) or edit it (200; send the version read to refuse a lost update). Built-in voices are read-only (409) */
        put: operations["put-voice"];
        post?: never;
        /** Delete a voice (built-in voices are read-only: 409); a second delete answers 404 */
        delete: operations["delete-voice"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/voices/{id}/preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Make the voice speak its sample sentence (once: later previews serve the stored sample) and answer where to fetch it */
        post: operations["preview-voice"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        "Add-character-formRequest": {
            clothing?: string;
            name: string;
            physical?: string;
        };
        "Add-regionRequest": {
            bbox: [
                number,
                number,
                number,
                number
            ];
            /** @enum {string} */
            kind: "headline" | "deck" | "subhead" | "byline" | "paragraph" | "list" | "caption" | "pull-quote" | "sidebar" | "footnote" | "source" | "page-number" | "furniture" | "ad" | "image" | "figure" | "chart" | "table" | "code" | "noise" | "duplicate" | "text-in-image";
        };
        "Approve-articleRequest": {
            images: components["schemas"]["MagazineRegionRef"][] | null;
            regions: components["schemas"]["MagazineRegionRef"][] | null;
        };
        ArticleListOutBody: {
            articles: components["schemas"]["MagazineArticle"][] | null;
        };
        ArticleOutBody: {
            article: components["schemas"]["MagazineArticle"];
            /** Format: int64 */
            revision: number;
            /** @description true when this change cleared the stored undo point (the Undo button goes away) */
            undo_cleared?: boolean;
            undo_token?: string;
        };
        ArticleTextOutBody: {
            text: string;
        };
        ArticlesOutBody: {
            articles: components["schemas"]["MagazineArticle"][] | null;
            /** Format: int64 */
            revision: number;
            /** @description true when this change cleared the stored undo point (the Undo button goes away) */
            undo_cleared?: boolean;
            undo_token?: string;
        };
        "Attribute-spansRequest": {
            book_id: string;
            /**
             * @description span (default) or classic (the browser's ab-span-mode 0)
             * @default span
             * @enum {string}
             */
            mode?: "span" | "classic";
            /** @description run the verify pass after attribution */
            verify?: boolean;
        };
        AudiobookChapter: {
            counts: components["schemas"]["AudiobookCounts"];
            /** Format: int64 */
            end: number;
            /** Format: int64 */
            first_segment: number;
            /** Format: int64 */
            index: number;
            /**
             * Format: int64
             * @description byte offset of the chapter in the book's text
             */
            start: number;
            title: string;
        };
        AudiobookCharacter: {
            aliases: string[] | null;
            /**
             * @description empty when unknown
             * @enum {string}
             */
            gender: "female" | "male" | "";
            id: string;
            /**
             * Format: int64
             * @description dialogue lines spoken
             */
            lines: number;
            /** Format: int64 */
            mentions: number;
            name: string;
            /** @description the first-person narrator ("said I") */
            narrator: boolean;
            /** Format: int64 */
            version: number;
            /** @description the voice was assigned at import by gender, not chosen by hand */
            voice_assigned?: boolean;
            /** @description the voice of the library the character speaks in; empty speaks in the narrator's */
            voice_id?: string;
        };
        AudiobookCharacterSuggestion: {
            /**
             * @description guessed from the name (Old, Little, King...); empty when it says nothing
             * @enum {string}
             */
            age: "young" | "middle_aged" | "old" | "";
            gender: string;
            id: string;
            name: string;
            voices: components["schemas"]["AudiobookSuggestedVoice"][] | null;
        };
        AudiobookCounts: {
            /** Format: int64 */
            agreed: number;
            /** Format: int64 */
            dialogue: number;
            /** Format: int64 */
            disputed: number;
            /**
             * Format: int64
             * @description dialogue lines set by hand
             */
            hand: number;
            /**
             * Format: int64
             * @description dialogue lines the LLM named
             */
            llm: number;
            /** Format: int64 */
            narration: number;
            /** Format: int64 */
            segments: number;
            /**
             * Format: int64
             * @description quotations that never closed
             */
            unclosed: number;
            /**
             * Format: int64
             * @description dialogue lines without a speaker
             */
            unknown: number;
            /**
             * Format: int64
             * @description dialogue lines with a speaker
             */
            with_speaker: number;
        };
        AudiobookOutput: {
            /** Format: int64 */
            cached: number;
            /**
             * Format: int64
             * @description the book chapter's index; -1 for the whole book
             */
            chapter: number;
            /** Format: int64 */
            chunks: number;
            /** Format: int64 */
            duration_ms: number;
            ear?: components["schemas"]["RenderEarReport"];
            /** Format: int64 */
            engine_calls: number;
            /** @enum {string} */
            format: "m4b" | "mp3";
            /** @description blob key of the audio */
            key: string;
            timings_key?: string;
            title: string;
        };
        AudiobookSegment: {
            /** Format: int64 */
            chapter: number;
            /**
             * Format: double
             * @description derived from the mark: 0.83 agreed, 0.485 disputed, 0.95 explicit tag
             */
            confidence?: number;
            /** @description the quotation goes on in the next dialogue segment */
            continues?: boolean;
            /** Format: int64 */
            end: number;
            /** @description the segment's id: its span id in span mode (c03-s0042), c03-k0007 in classic mode */
            id: string;
            /** @enum {string} */
            kind: "narration" | "dialogue";
            /**
             * @description the verify pass's verification mark
             * @enum {string}
             */
            mark?: "agreed" | "disputed" | "";
            /** @description the verify pass's answer on a disputed line */
            other_answer?: string;
            /** @description how the speaker was found: explicit, pronoun, paragraph, turn, llm, classic, hand or none */
            source?: string;
            /** @description the span the segment is (span mode) */
            spanId?: string;
            /** @description the speaker's name (a cast name); empty for narration or unknown */
            speaker?: string;
            /** Format: int64 */
            start: number;
            /** @description the segment's text (answers only; not stored) */
            text?: string;
            /** @description a quotation that never closed */
            unclosed?: boolean;
        };
        AudiobookSegmentPage: {
            /** Format: int64 */
            count: number;
            has_more: boolean;
            items: components["schemas"]["AudiobookSegment"][] | null;
            /**
             * Format: int64
             * @description offset of the next page; null when there is none
             */
            next_offset: number | null;
            /** Format: int64 */
            offset: number;
            /**
             * Format: int64
             * @description the book's revision these segments are of; send it as If-Match to set a speaker
             */
            revision: number;
            /**
             * Format: int64
             * @description segments matching the filter
             */
            total: number;
        };
        AudiobookSuggestedVoice: {
            /** @enum {string} */
            age: "young" | "middle_aged" | "old" | "";
            /** @enum {string} */
            gender: "female" | "male" | "neutral" | "";
            language: string;
            name: string;
            /**
             * Format: int64
             * @description higher fits better: gender, then age, then English, then not yet taken
             */
            score: number;
            voice_id: string;
        };
        AudiobookSuggestions: {
            characters: components["schemas"]["AudiobookCharacterSuggestion"][] | null;
            narrator: components["schemas"]["AudiobookSuggestedVoice"][] | null;
        };
        AudiobookSummary: {
            author: string;
            created: string;
            /** @description why the import failed */
            error?: string;
            id: string;
            /** @enum {string} */
            status: "importing" | "ready" | "failed";
            title: string;
        };
        AudiobookapiBookView: {
            author: string;
            /**
             * Format: int64
             * @description bytes of the book's text
             */
            bytes: number;
            cast: components["schemas"]["AudiobookCharacter"][] | null;
            /** @description the last cast job's id */
            cast_job?: string;
            /** @description the last cast job (POST /api/attribute-spans) */
            cast_job_status?: components["schemas"]["JobsapiView"];
            chapters: components["schemas"]["AudiobookChapter"][] | null;
            counts: components["schemas"]["AudiobookCounts"];
            /** Format: date-time */
            created: string;
            /** @description why the import failed */
            error?: string;
            filename: string;
            /**
             * @description what was uploaded
             * @enum {string}
             */
            format: "txt" | "epub";
            id: string;
            /** @description the import job's id */
            import_job?: string;
            /** @description the import job (parse, split, cast by rules) */
            import_job_status?: components["schemas"]["JobsapiView"];
            /** @enum {string} */
            mode: "span" | "classic";
            /** @description the narrator's voice id; empty until set */
            narrator_voice?: string;
            /** @description the last render job's id */
            render_job?: string;
            /** @description the last render job */
            render_job_status?: components["schemas"]["JobsapiView"];
            /**
             * Format: int64
             * @description increases with every change of the segments; send it as If-Match to set a speaker
             */
            revision: number;
            /**
             * @description importing until the import job has made the book ready, or failed (see error)
             * @enum {string}
             */
            status: "importing" | "ready" | "failed";
            title: string;
            /** Format: date-time */
            updated: string;
        };
        AudiobookapiCastEditView: {
            author: string;
            /**
             * Format: int64
             * @description bytes of the book's text
             */
            bytes: number;
            cast: components["schemas"]["AudiobookCharacter"][] | null;
            /** @description the last cast job's id */
            cast_job?: string;
            /** @description the last cast job (POST /api/attribute-spans) */
            cast_job_status?: components["schemas"]["JobsapiView"];
            /**
             * Format: int64
             * @description dialogue lines whose speaker the edit and the re-attribution changed
             */
            changed_lines: number;
            chapters: components["schemas"]["AudiobookChapter"][] | null;
            counts: components["schemas"]["AudiobookCounts"];
            /** Format: date-time */
            created: string;
            /** @description why the import failed */
            error?: string;
            filename: string;
            /**
             * @description what was uploaded
             * @enum {string}
             */
            format: "txt" | "epub";
            id: string;
            /** @description the import job's id */
            import_job?: string;
            /** @description the import job (parse, split, cast by rules) */
            import_job_status?: components["schemas"]["JobsapiView"];
            /** @enum {string} */
            mode: "span" | "classic";
            /** @description the narrator's voice id; empty until set */
            narrator_voice?: string;
            /** @description the last render job's id */
            render_job?: string;
            /** @description the last render job */
            render_job_status?: components["schemas"]["JobsapiView"];
            /**
             * Format: int64
             * @description increases with every change of the segments; send it as If-Match to set a speaker
             */
            revision: number;
            /**
             * @description importing until the import job has made the book ready, or failed (see error)
             * @enum {string}
             */
            status: "importing" | "ready" | "failed";
            title: string;
            /** Format: date-time */
            updated: string;
        };
        AudiobookapiChapterURL: {
            /** Format: int64 */
            chapter: number;
            /** @description the MP3's sentence timings */
            timings_url?: string;
            title: string;
            /** @description redirects to a short-lived URL of the MP3 */
            url: string;
        };
        AudiobookapiRenderView: {
            book?: components["schemas"]["AudiobookOutput"];
            /** @description the M4B once made (redirects to a short-lived URL) */
            book_url?: string;
            chapter_urls: components["schemas"]["AudiobookapiChapterURL"][] | null;
            chapters: components["schemas"]["AudiobookOutput"][] | null;
            /** @description the ear over the chapters made so far: marked chunks by book chapter, the worst rate, and the median of the chapters' medians */
            ear?: components["schemas"]["RenderEarReport"];
            error?: string;
            job_id: string;
            message?: string;
            /** Format: double */
            progress: number;
            /** @enum {string} */
            status: "queued" | "running" | "succeeded" | "failed";
        };
        AudiobookapiVoiceBody: {
            /** @description a voice of the library; empty clears it (a character then speaks in the narrator's voice) */
            voice_id: string;
        };
        BookCastOutputBody: {
            characters: components["schemas"]["AudiobookCharacter"][] | null;
            narrator_voice: string;
        };
        BookListOutputBody: {
            books: components["schemas"]["AudiobookSummary"][] | null;
        };
        BuiltinsEngine: {
            /** @description why it is missing and how to install it */
            detail?: string;
            /** @description what Lectern uses it for */
            does: string;
            found: boolean;
            /** @enum {string} */
            name: "text-layer" | "tesseract" | "espeak-ng" | "piper" | "whisper" | "ffmpeg";
            /** @description the engine's name as the app shows it */
            title: string;
            version?: string;
        };
        BuiltinsReport: {
            engines: components["schemas"]["BuiltinsEngine"][] | null;
            host: string;
        };
        "Bulk-regionsRequest": {
            /** @enum {string} */
            action: "delete" | "set-kind";
            ids: string[] | null;
            /** @enum {string} */
            kind?: "headline" | "deck" | "subhead" | "byline" | "paragraph" | "list" | "caption" | "pull-quote" | "sidebar" | "footnote" | "source" | "page-number" | "furniture" | "ad" | "image" | "figure" | "chart" | "table" | "code" | "noise" | "duplicate" | "text-in-image";
        };
        CardsModelChoice: {
            /** @description the llm_model now set; empty when it was cleared */
            model: string;
            /** @description the choice in words, for the user */
            reason: string;
            /**
             * @description card: the card's own model; engine: the card names none, so the first model the engine lists at /v1/models (as Connect shows them); none: neither, so llm_model was cleared
             * @enum {string}
             */
            source: "card" | "engine" | "none";
        };
        CardsSpec: {
            /** @description engine base URL; empty assumes this host's usual port (local mode only) */
            base_url?: string;
            /** @description Docker container name on the engine host */
            container?: string;
            /** @description Docker Engine API endpoint of the host the container runs on (http(s)://host:2375 or unix:///var/run/docker.sock) */
            docker_host?: string;
            /** @enum {string} */
            kind: "llm" | "vision-ocr" | "vision-ocr-fallback" | "vision" | "tts" | "image" | "other";
            model?: string;
            /**
             * @description vision-ocr and vision-ocr-fallback cards: lectern (any vision chat model asked for Lectern's JSON regions, the default), dots-ocr (dots.ocr on vLLM), olmocr (olmOCR-2 on vLLM; its blocks are placed on Tesseract's words), docling (docling-serve's convert API), qwen2.5-vl or qwen3-vl (text spotting); the OCR chain uses the preset of the card whose base_url is vision_ocr_url or vision_ocr_fallback_url
             * @enum {string}
             */
            ocr_preset?: "lectern" | "dots-ocr" | "olmocr" | "docling" | "qwen2.5-vl" | "qwen3-vl" | "";
            /**
             * @description tts cards: openai (speech only, the default), chatterbox (Chatterbox TTS API: speech and voice cloning), elevenlabs (ElevenLabs API: speech, cloning and voice design)
             * @enum {string}
             */
            voice_api?: "openai" | "chatterbox" | "elevenlabs" | "";
        };
        CardsView: {
            /** @description engine base URL; empty assumes this host's usual port (local mode only) */
            base_url?: string;
            /** @description Docker container name on the engine host */
            container?: string;
            /** @description Docker Engine API endpoint of the host the container runs on (http(s)://host:2375 or unix:///var/run/docker.sock) */
            docker_host?: string;
            docker_url: string;
            /** @description true when engine_api_keys holds a key for this card */
            key_configured: boolean;
            /** @enum {string} */
            kind: "llm" | "vision-ocr" | "vision-ocr-fallback" | "vision" | "tts" | "image" | "other";
            model?: string;
            /** @description card name; also its key in engine_api_keys */
            name: string;
            /**
             * @description vision-ocr and vision-ocr-fallback cards: lectern (any vision chat model asked for Lectern's JSON regions, the default), dots-ocr (dots.ocr on vLLM), olmocr (olmOCR-2 on vLLM; its blocks are placed on Tesseract's words), docling (docling-serve's convert API), qwen2.5-vl or qwen3-vl (text spotting); the OCR chain uses the preset of the card whose base_url is vision_ocr_url or vision_ocr_fallback_url
             * @enum {string}
             */
            ocr_preset?: "lectern" | "dots-ocr" | "olmocr" | "docling" | "qwen2.5-vl" | "qwen3-vl" | "";
            /** @description vision OCR cards: the prompt the card's preset sends with each page image (none for docling, which takes no prompt) */
            ocr_prompt?: string;
            /** @description the URL the server will call; empty when the card needs one */
            url: string;
            /** @enum {string} */
            url_source: "card" | "default" | "missing";
            /**
             * @description tts cards: openai (speech only, the default), chatterbox (Chatterbox TTS API: speech and voice cloning), elevenlabs (ElevenLabs API: speech, cloning and voice design)
             * @enum {string}
             */
            voice_api?: "openai" | "chatterbox" | "elevenlabs" | "";
        };
        CharactersCharacter: {
            active_form: string;
            age: string;
            aliases: string[] | null;
            facts: components["schemas"]["CharactersFacts"];
            /** @description the first is the base form */
            forms: components["schemas"]["CharactersForm"][] | null;
            gender: string;
            id: string;
            /** Format: int64 */
            mentions: number;
            name: string;
            passages: components["schemas"]["CharactersPassage"][] | null;
            /** @description protagonist, major or minor */
            role: string;
            /** Format: int64 */
            version: number;
            visual_build?: string;
            /** @description eyes, over the text's and the vision description's */
            visual_eyes?: string;
            /** @description hair, over the text's and the vision description's */
            visual_hair?: string;
            /** @description costume colours */
            visual_palette?: string;
            visual_skin?: string;
            /** @description art style (default: clean storybook illustration) */
            visual_style?: string;
        };
        CharactersCheck: {
            detail: string;
            name: string;
            ok: boolean;
        };
        CharactersDescription: {
            avatar: string;
            eyes: string;
            facial_hair: string;
            hair: string;
        };
        CharactersFact: {
            /** @description ids of the character's passages */
            passages: string[] | null;
            text: string;
        };
        CharactersFacts: {
            age: components["schemas"]["CharactersFact"][] | null;
            clothing: components["schemas"]["CharactersFact"][] | null;
            physical: components["schemas"]["CharactersFact"][] | null;
        };
        CharactersForm: {
            avatar?: components["schemas"]["CharactersImage"];
            clothing: string;
            concept?: components["schemas"]["CharactersImage"];
            description?: components["schemas"]["CharactersDescription"];
            fingerprint: string;
            id: string;
            image_prompt: string;
            name: string;
            pair_broken: boolean;
            physical: string;
            prompts: components["schemas"]["CharactersPrompts"];
            review?: components["schemas"]["CharactersReview"];
            stale: boolean;
            story?: components["schemas"]["CharactersImage"][] | null;
            turnaround?: components["schemas"]["CharactersImage"];
        };
        CharactersImage: {
            card: string;
            /** Format: date-time */
            created: string;
            fell_back?: boolean;
            fingerprint: string;
            id: string;
            /** @enum {string} */
            kind: "avatar" | "concept" | "turnaround" | "story";
            note?: string;
            pair?: string;
            passage?: string;
            prompt: string;
            reference?: string;
            /** @description a short-lived link to the PNG */
            url: string;
        };
        CharactersPassage: {
            /** @description p1, p2, … within the character */
            id: string;
            /**
             * Format: int64
             * @description byte offset of the passage in the text
             */
            start: number;
            text: string;
        };
        CharactersPrompts: {
            avatar: string;
            concept: string;
            story: string;
            turnaround: string;
        };
        CharactersReview: {
            /** Format: date-time */
            at: string;
            checks: components["schemas"]["CharactersCheck"][] | null;
            passed: boolean;
        };
        CharactersSet: {
            book_id?: string;
            /** Format: int64 */
            characters: number;
            /** Format: date-time */
            created: string;
            error?: string;
            id: string;
            job_id?: string;
            /** @enum {string} */
            method?: "rules" | "llm" | "";
            /** @enum {string} */
            source: "book" | "text";
            /** @enum {string} */
            status: "extracting" | "ready" | "failed";
            title: string;
        };
        CharactersVisual: {
            visual_build?: string;
            /** @description eyes, over the text's and the vision description's */
            visual_eyes?: string;
            /** @description hair, over the text's and the vision description's */
            visual_hair?: string;
            /** @description costume colours */
            visual_palette?: string;
            visual_skin?: string;
            /** @description art style (default: clean storybook illustration) */
            visual_style?: string;
        };
        CharactersapiEditBody: {
            /** @description the form edits and prompt writes go to */
            active_form?: string;
            age?: string;
            /** @description the active form's clothing description */
            clothing?: string;
            /** @description the active form's physical description */
            physical?: string;
            /** @enum {string} */
            role?: "protagonist" | "major" | "minor";
            /** @description the visual_* overrides, replaced as a whole */
            visual?: components["schemas"]["CharactersVisual"];
        };
        CleanupOutBody: {
            changes: components["schemas"]["MagazineChange"][] | null;
            /** Format: int64 */
            revision: number;
            /** @description true when this change cleared the stored undo point (the Undo button goes away) */
            undo_cleared?: boolean;
            undo_token?: string;
        };
        "Create-articleRequest": {
            regions?: components["schemas"]["MagazineRegionRef"][] | null;
            title?: string;
        };
        DesignInputBody: {
            /** @description what the voice sounds like: warm older woman, Scottish, slow */
            description: string;
            /** @description espeak-ng (offline: the description picks voice, variant, pitch and rate), or an elevenlabs engine card */
            engine: string;
            /** @description what the samples read; a standard passage when absent */
            text?: string;
        };
        "Edit-podcast-scriptRequest": {
            /** @description new hosts; absent keeps them */
            hosts?: [
                components["schemas"]["ReadaloudHost"],
                components["schemas"]["ReadaloudHost"]
            ] | null;
            turns: components["schemas"]["ReadaloudTurn"][] | null;
        };
        ErrorDetail: {
            /** @description Where the error occurred, e.g. 'body.items[3].tags' or 'path.thing-id' */
            location?: string;
            /** @description Error message text */
            message?: string;
            /** @description The value at the given location */
            value?: unknown;
        };
        ErrorModel: {
            /**
             * @description A human-readable explanation specific to this occurrence of the problem.
             * @example Property foo is required but is missing.
             */
            detail?: string;
            /** @description Optional list of individual error details */
            errors?: components["schemas"]["ErrorDetail"][] | null;
            /**
             * Format: uri
             * @description A URI reference that identifies the specific occurrence of the problem.
             * @example https://example.com/error-log/abc123
             */
            instance?: string;
            /**
             * Format: int64
             * @description HTTP status code
             * @example 400
             */
            status?: number;
            /**
             * @description A short, human-readable summary of the problem type. This value should not change between occurrences of the error.
             * @example Bad Request
             */
            title?: string;
            /**
             * Format: uri
             * @description A URI reference to human-readable documentation for the error.
             * @default about:blank
             * @example https://example.com/errors/example
             */
            type?: string;
        };
        "Extract-charactersRequest": {
            /** @description a book of the audiobook feature */
            book_id?: string;
            /** @description the text (UTF-8, at most 4 MiB); or book_id */
            text?: string;
            title?: string;
        };
        ExtractOutBody: {
            job_id: string;
            set: components["schemas"]["CharactersSet"];
            /** @description GET it to follow the extraction */
            status_url: string;
        };
        "Fix-reading-orderRequest": {
            /** @description page numbers; without them, every page of the issue */
            pages?: number[] | null;
        };
        FixOrderOutBody: {
            changed: number[] | null;
            /** Format: int64 */
            revision: number;
            /** @description hand-ordered pages, left alone */
            skipped: number[] | null;
            /** @description true when this change cleared the stored undo point (the Undo button goes away) */
            undo_cleared?: boolean;
            undo_token?: string;
        };
        FormFile: {
            ContentType: string;
            Filename: string;
            IsSet: boolean;
            /** Format: int64 */
            Size: number;
        };
        "Generate-character-imageRequest": {
            /** @description the image engine card; default the first card of kind image */
            card?: string;
            /** @enum {string} */
            kind: "avatar" | "concept" | "pair" | "turnaround" | "story";
            /** @description story: a passage id of the character (p1, …) or the passage's text */
            passage?: string;
        };
        HealthOutputBody: {
            /**
             * @description ok when the server can answer
             * @enum {string}
             */
            status: "ok";
        };
        ImageOutBody: {
            /** @description the image id */
            image: string;
            region: components["schemas"]["MagazineRegion"];
            /** Format: int64 */
            revision: number;
            /** @description true when this change cleared the stored undo point (the Undo button goes away) */
            undo_cleared?: boolean;
            undo_token?: string;
        };
        IssueListOutputBody: {
            issues: components["schemas"]["MagazineIssue"][] | null;
            /** @enum {string} */
            upload: "form" | "presigned";
        };
        IssuesStep: {
            /** Format: date-time */
            at: string;
            done: boolean;
            engine?: string;
            error?: string;
            /** Format: int64 */
            page: number;
            step: string;
        };
        JobStartedOutBody: {
            job_id: string;
            /** @enum {string} */
            status: "queued" | "running" | "succeeded" | "failed";
            /** @description GET it to follow the job (status, progress, message, error, result) */
            status_url: string;
        };
        JobsapiView: {
            /** Format: date-time */
            created: string;
            /** @description why it failed (or, while queued again, why the last attempt did) */
            error?: string;
            id: string;
            /** @description what the job does, e.g. magazine.describe */
            kind: string;
            /** @description what the job is doing, or how it ended */
            message?: string;
            /** Format: double */
            progress: number;
            /** @description the job's result once it succeeded; its shape depends on the kind */
            result?: unknown;
            /** @enum {string} */
            status: "queued" | "running" | "succeeded" | "failed";
            /** Format: date-time */
            updated: string;
        };
        ListOutputBody: {
            cards: components["schemas"]["CardsView"][] | null;
        };
        "Listen-articleRequest": {
            /** @description hear every chunk with the ear (speech recognition) beside the render; absent follows Settings (ear_check, on unless switched off) */
            check?: boolean;
            /** @description read each picture's description where the picture occurs (default false); a picture without one is skipped */
            descriptions?: boolean;
            /**
             * @description mp3 (default) or m4b
             * @default mp3
             * @enum {string}
             */
            format?: "mp3" | "m4b";
            /** @description leave tables out (default false: a table is read as its caption, then row by row with the column headings) */
            skip_tables?: boolean;
            /**
             * Format: double
             * @description multiple of the normal rate, 0.25..4; 0 or absent is 1
             */
            speed?: number;
            /** @description the narrator: a voice of the library */
            voice_id: string;
        };
        "Listen-issueRequest": {
            /** @description hear every chunk with the ear (speech recognition) beside the render; absent follows Settings (ear_check, on unless switched off) */
            check?: boolean;
            /** @description read each picture's description where the picture occurs (default false); a picture without one is skipped */
            descriptions?: boolean;
            /**
             * @description m4b (default: chapters for audiobook players) or mp3
             * @default m4b
             * @enum {string}
             */
            format?: "mp3" | "m4b";
            /** @description leave tables out (default false: a table is read as its caption, then row by row with the column headings) */
            skip_tables?: boolean;
            /**
             * Format: double
             * @description multiple of the normal rate, 0.25..4; 0 or absent is 1
             */
            speed?: number;
            /** @description the narrator: a voice of the library */
            voice_id: string;
        };
        MagazineArticle: {
            /** @description approved, and nothing in the article changed since (its title, region or image list, or any of its regions' text, box, kind or description) */
            approved: boolean;
            /** @description the author its byline names, when a proposal found one */
            author?: string;
            /** @description the article was approved, then something in it changed, which withdrew the approval (approved is false); approving it again clears this */
            changed_since_approval: boolean;
            id: string;
            images: components["schemas"]["MagazineRegionRef"][] | null;
            issue_id: string;
            /** @description proposed automatically from the issue's headlines and not yet accepted (status proposed); it can be listened to, and accepting it approves it */
            proposed?: boolean;
            regions: components["schemas"]["MagazineRegionRef"][] | null;
            title: string;
        };
        MagazineCell: {
            /**
             * Format: int64
             * @description columns the cell covers; 0 or 1 is one
             */
            col_span?: number;
            /** @description a heading cell (of a header row) */
            header?: boolean;
            /**
             * Format: int64
             * @description rows the cell covers; 0 or 1 is one
             */
            row_span?: number;
            text: string;
        };
        MagazineChange: {
            /** @enum {string} */
            from: "headline" | "deck" | "subhead" | "byline" | "paragraph" | "list" | "caption" | "pull-quote" | "sidebar" | "footnote" | "source" | "page-number" | "furniture" | "ad" | "image" | "figure" | "chart" | "table" | "code" | "noise" | "duplicate" | "text-in-image";
            new_region_id?: string;
            region_id: string;
            rule: string;
            /** @enum {string} */
            to: "headline" | "deck" | "subhead" | "byline" | "paragraph" | "list" | "caption" | "pull-quote" | "sidebar" | "footnote" | "source" | "page-number" | "furniture" | "ad" | "image" | "figure" | "chart" | "table" | "code" | "noise" | "duplicate" | "text-in-image";
        };
        MagazineCleaned: {
            /** @enum {string} */
            kind: "headline" | "deck" | "subhead" | "byline" | "paragraph" | "list" | "caption" | "pull-quote" | "sidebar" | "footnote" | "source" | "page-number" | "furniture" | "ad" | "image" | "figure" | "chart" | "table" | "code" | "noise" | "duplicate" | "text-in-image";
            rule: string;
        };
        MagazineIssue: {
            /** Format: date-time */
            created: string;
            error?: string;
            error_cause?: string;
            id: string;
            /** Format: int64 */
            page_count: number;
            page_errors?: components["schemas"]["MagazinePageError"][] | null;
            /** Format: int64 */
            pages_done: number;
            /** Format: int64 */
            revision: number;
            source_key: string;
            status: string;
            step?: string;
            title: string;
            /** Format: date-time */
            updated: string;
        };
        MagazinePage: {
            /** Format: int64 */
            dpi: number;
            engine?: string;
            engine_note?: string;
            error?: string;
            hand_ordered: boolean;
            /** Format: double */
            height: number;
            issue_id: string;
            /** Format: int64 */
            number: number;
            /** Format: int64 */
            ocr_dpi?: number;
            order: string[] | null;
            regions: components["schemas"]["MagazineRegion"][] | null;
            render_key?: string;
            step?: string;
            thumb_key?: string;
            /** Format: date-time */
            updated: string;
            /** Format: double */
            width: number;
        };
        MagazinePageError: {
            error: string;
            /** Format: int64 */
            page: number;
            step: string;
        };
        MagazineRegion: {
            article_id?: string;
            bbox: [
                number,
                number,
                number,
                number
            ];
            bold?: boolean;
            cleaned_from?: components["schemas"]["MagazineCleaned"];
            crop_key?: string;
            description?: string;
            /** Format: double */
            font_size?: number;
            /** @description the box was drawn, moved or resized by hand; figure refinement never moves it */
            hand_placed?: boolean;
            id: string;
            /** @enum {string} */
            kind: "headline" | "deck" | "subhead" | "byline" | "paragraph" | "list" | "caption" | "pull-quote" | "sidebar" | "footnote" | "source" | "page-number" | "furniture" | "ad" | "image" | "figure" | "chart" | "table" | "code" | "noise" | "duplicate" | "text-in-image";
            original_text?: string;
            table?: components["schemas"]["MagazineTable"];
            text?: string;
            /** @enum {string} */
            visual_kind?: "headline" | "deck" | "subhead" | "byline" | "paragraph" | "list" | "caption" | "pull-quote" | "sidebar" | "footnote" | "source" | "page-number" | "furniture" | "ad" | "image" | "figure" | "chart" | "table" | "code" | "noise" | "duplicate" | "text-in-image";
        };
        MagazineRegionRef: {
            /** Format: int64 */
            page: number;
            region: string;
        };
        MagazineTable: {
            caption?: string;
            rows: (components["schemas"]["MagazineCell"][] | null)[] | null;
        };
        MagazineTableEdit: {
            /**
             * Format: int64
             * @description grid column, 0-based (set_cell, insert_col, delete_col)
             */
            col?: number;
            /**
             * Format: int64
             * @description how many leading rows are headings (header_rows)
             */
            count?: number;
            /**
             * @description what to change
             * @enum {string}
             */
            op: "set_cell" | "insert_row" | "delete_row" | "insert_col" | "delete_col" | "header_rows" | "caption";
            /**
             * Format: int64
             * @description grid row, 0-based (set_cell, insert_row, delete_row)
             */
            row?: number;
            /** @description the cell's text (set_cell) or the caption (caption) */
            text?: string;
        };
        MagazineapiIssueView: {
            /** Format: date-time */
            created: string;
            error?: string;
            error_cause?: string;
            id: string;
            /** Format: int64 */
            page_count: number;
            page_errors?: components["schemas"]["MagazinePageError"][] | null;
            pages: components["schemas"]["IssuesStep"][] | null;
            /** Format: int64 */
            pages_done: number;
            /** Format: int64 */
            revision: number;
            source_key: string;
            status: string;
            step?: string;
            title: string;
            /** Format: date-time */
            updated: string;
        };
        MagazineapiPageSummary: {
            engine?: string;
            error?: string;
            /** Format: double */
            height: number;
            /** Format: int64 */
            number: number;
            /** Format: int64 */
            regions: number;
            step: string;
            thumb_url?: string;
            /** Format: double */
            width: number;
        };
        MagazineapiPageView: {
            /** Format: int64 */
            dpi: number;
            engine?: string;
            engine_note?: string;
            error?: string;
            hand_ordered: boolean;
            /** Format: double */
            height: number;
            image_url?: string;
            issue_id: string;
            /** Format: int64 */
            number: number;
            /** Format: int64 */
            ocr_dpi?: number;
            order: string[] | null;
            regions: components["schemas"]["MagazineRegion"][] | null;
            render_key?: string;
            step?: string;
            thumb_key?: string;
            /** Format: date-time */
            updated: string;
            /**
             * Format: int64
             * @description send as If-Match with an edit to refuse it (409) if the page changed since
             */
            version: number;
            /** Format: double */
            width: number;
        };
        "Merge-book-charactersRequest": {
            /** @description the id of the character merged into this one; it leaves the cast */
            from: string;
        };
        MergeOutBody: {
            region: components["schemas"]["MagazineRegion"];
            removed: string;
            /** Format: int64 */
            revision: number;
            /** @description true when this change cleared the stored undo point (the Undo button goes away) */
            undo_cleared?: boolean;
            undo_token?: string;
        };
        ModelsOutputBody: {
            models: string[] | null;
            name: string;
            url: string;
        };
        PageListOutputBody: {
            pages: components["schemas"]["MagazineapiPageSummary"][] | null;
        };
        PageOutBody: {
            page: components["schemas"]["MagazinePage"];
            /** Format: int64 */
            revision: number;
            /** @description true when this change cleared the stored undo point (the Undo button goes away) */
            undo_cleared?: boolean;
            undo_token?: string;
        };
        "Patch-imageRequest": {
            /** @description one or two sentences; "" clears the description */
            description: string;
        };
        PresignOutputBody: {
            content_type: string;
            /** Format: date-time */
            expires_at: string;
            /** @description form fields to send, in any order, before the file */
            fields: {
                [key: string]: string;
            };
            issue: components["schemas"]["MagazineIssue"];
            /**
             * Format: int64
             * @description the largest file the storage server accepts
             */
            max_bytes: number;
            /**
             * @description POST: a multipart form of fields, then the file
             * @enum {string}
             */
            method: "POST";
            upload_url: string;
        };
        PresignRequestBody: {
            filename: string;
            /**
             * Format: int64
             * @description bytes the browser will upload
             */
            size: number;
            title?: string;
        };
        "Preview-character-promptsRequest": {
            age: string;
            clothing: string;
            /** @description the vision description of the form's reviewed portrait */
            description?: components["schemas"]["CharactersDescription"];
            form: string;
            name: string;
            passage?: string;
            physical: string;
            visual_build?: string;
            /** @description eyes, over the text's and the vision description's */
            visual_eyes?: string;
            /** @description hair, over the text's and the vision description's */
            visual_hair?: string;
            /** @description costume colours */
            visual_palette?: string;
            visual_skin?: string;
            /** @description art style (default: clean storybook illustration) */
            visual_style?: string;
        };
        PreviewOutBody: {
            armed: boolean;
            /** @description the canonical text of the inputs (see shared/characters Canonical) */
            canonical: string;
            /** @description lowercase hex SHA-256 of canonical */
            fingerprint: string;
            prompts: components["schemas"]["CharactersPrompts"];
            /** @description the story prompt with the passage, when one was sent */
            story?: string;
        };
        PreviewOutputBody: {
            engine?: string;
            html: string;
            image_url?: string;
            /** Format: int64 */
            page: number;
            step: string;
        };
        ReadaloudHost: {
            name: string;
            /** @description a voice of the library */
            voice_id: string;
        };
        ReadaloudRecord: {
            article: string;
            /**
             * Format: int64
             * @description LLM calls the last generation made (at most 3)
             */
            attempts?: number;
            /** @description why the last generation failed; the script before it, if any, is kept */
            error?: string;
            /**
             * Format: double
             * @description the script's length at 150 words a minute
             */
            estimated_seconds: number;
            issue: string;
            /**
             * Format: int64
             * @description the length asked for
             */
            minutes: number;
            /** @description absent until a generation succeeded */
            script?: components["schemas"]["ReadaloudScript"];
            /**
             * @description who wrote the script
             * @enum {string}
             */
            source?: "llm" | "deterministic" | "edited";
            /**
             * @description ok: a script with no grounding violation; flagged: a script with violations, kept for review; failed: no script, the last generation failed (see error)
             * @enum {string}
             */
            status: "ok" | "flagged" | "failed";
            /** @description the LLM's script ran more than 15% over the minutes and was cut at a turn boundary, keeping its closing */
            trimmed?: boolean;
            /** Format: date-time */
            updated_at: string;
            /**
             * Format: int64
             * @description send as If-Match with an edit
             */
            version: number;
            /** @description what the script says that the article does not (numbers, names, quotations) */
            violations: components["schemas"]["ReadaloudViolation"][] | null;
        };
        ReadaloudScript: {
            hosts: [
                components["schemas"]["ReadaloudHost"],
                components["schemas"]["ReadaloudHost"]
            ] | null;
            title: string;
            turns: components["schemas"]["ReadaloudTurn"][] | null;
        };
        ReadaloudTurn: {
            /**
             * Format: int64
             * @description 0 or 1: an index into hosts
             */
            host: number;
            /** @description the article paragraphs it reads (deterministic scripts) */
            source?: number[] | null;
            text: string;
        };
        ReadaloudViolation: {
            /** @enum {string} */
            kind: "number" | "name" | "quote";
            text: string;
            /** Format: int64 */
            turn: number;
        };
        RecognizeInBody: {
            /**
             * @description the one engine to read with: the PDF's text layer, the primary or fallback vision engine of the settings, or Tesseract; no other engine is tried
             * @enum {string}
             */
            engine: "text-layer" | "vision-primary" | "vision-fallback" | "tesseract";
            /** @description read only this text region's box again and replace its text; without it the whole page is read again and its regions replaced */
            region_id?: string;
        };
        RecognizeOutBody: {
            /** @description the engine that read it */
            engine: string;
            /** @description the page with its new regions (a page read again) */
            page?: components["schemas"]["MagazinePage"];
            /** @description the region with its new text (a region read again) */
            region?: components["schemas"]["MagazineRegion"];
            /** Format: int64 */
            revision: number;
            /** @description true when this change cleared the stored undo point (the Undo button goes away) */
            undo_cleared?: boolean;
            undo_token?: string;
        };
        RegionOutBody: {
            region: components["schemas"]["MagazineRegion"];
            /** Format: int64 */
            revision: number;
            /** @description true when this change cleared the stored undo point (the Undo button goes away) */
            undo_cleared?: boolean;
            undo_token?: string;
        };
        RemotevoicesImportAnswer: {
            /**
             * Format: int64
             * @description voices that were absent and were added
             */
            created: number;
        };
        RemotevoicesImportRequest: {
            /** @description voices to add where their id is absent; each is checked, and one bad voice adds none */
            voices: components["schemas"]["VoicesVoice"][] | null;
        };
        "Rename-book-characterRequest": {
            /** @description the new name */
            name: string;
        };
        RenameInputBody: {
            /** @description the new title; spaces at either end are dropped, and some other character must remain */
            title: string;
        };
        RenderChapterTiming: {
            /** Format: int64 */
            end_ms: number;
            sentences: components["schemas"]["RenderSentenceTiming"][] | null;
            /** Format: int64 */
            start_ms: number;
            title: string;
        };
        RenderChunkList: {
            /** @description the chunks from 'from' on that are spoken, in order, up to the first that is not yet */
            chunks: components["schemas"]["RenderSpokenChunk"][] | null;
            /** @description why the render failed, or why it is being retried */
            error?: string;
            /** @description the render finished but a chunk's audio has left the cache: the list stops before it; play the whole audio instead */
            evicted?: boolean;
            /** Format: int64 */
            from: number;
            /**
             * Format: int64
             * @description the index to ask from next; absent when no more chunks will come
             */
            next?: number;
            /** @enum {string} */
            status: "queued" | "running" | "succeeded" | "failed";
            /**
             * Format: int64
             * @description chunks in the render; 0 until its job has planned them
             */
            total: number;
        };
        RenderEarReport: {
            /**
             * Format: int64
             * @description distinct chunks heard
             */
            checked: number;
            marked: components["schemas"]["RenderMarkedChunk"][] | null;
            /**
             * Format: double
             * @description median word error rate of the chunks heard
             */
            median_wer: number;
            /** @description why the ear was unavailable */
            reason?: string;
            /**
             * Format: int64
             * @description chunks spoken again because they were heard wrong
             */
            retried: number;
            /**
             * @description checked; off when switched off (by the request or in Settings); unavailable when Whisper is not installed or failed (the render is unchecked)
             * @enum {string}
             */
            status: "checked" | "off" | "unavailable";
            /**
             * Format: double
             * @description worst word error rate of the chunks heard
             */
            worst_wer: number;
        };
        RenderMarkedChunk: {
            /** Format: int64 */
            chapter: number;
            /** @description what the ear heard */
            heard: string;
            /**
             * Format: int64
             * @description the chunk's place in the render, from 0
             */
            index: number;
            /**
             * Format: int64
             * @description its sentence's index within the chapter, as in the timings
             */
            sentence: number;
            /** @description what the chunk should say */
            text: string;
            /** Format: double */
            wer: number;
        };
        RenderResult: {
            /**
             * Format: int64
             * @description distinct chunks found in the cache, not spoken again (a chunk said twice is spoken once)
             */
            cached: number;
            /**
             * Format: int64
             * @description engine-sized pieces of text
             */
            chunks: number;
            content_type: string;
            /** Format: int64 */
            duration_ms: number;
            /** @description the speech recognition check of every chunk */
            ear?: components["schemas"]["RenderEarReport"];
            /** Format: int64 */
            engine_calls: number;
            /**
             * Format: int64
             * @description cached chunks of other renders removed afterwards, the least recently used, to keep the cache within its budget
             */
            evicted: number;
            /** @description blob key of the audio */
            key: string;
            /** @description blob key of the sentence timings (JSON) */
            timings_key: string;
        };
        RenderSentenceTiming: {
            /** Format: int64 */
            end_ms: number;
            /**
             * Format: int64
             * @description index of its segment within the chapter (0 for a chapter given as text)
             */
            segment: number;
            /** Format: int64 */
            start_ms: number;
            text: string;
            /** @description the library voice speaking it */
            voice_id?: string;
        };
        RenderSpokenChunk: {
            /**
             * Format: int64
             * @description its chapter's index
             */
            chapter: number;
            /** Format: int64 */
            duration_ms: number;
            /**
             * Format: int64
             * @description the chunk's place in the render, from 0
             */
            index: number;
            /**
             * Format: int64
             * @description its segment's index within the chapter
             */
            segment: number;
            /**
             * Format: int64
             * @description its sentence's index within the chapter (as in the timings); pieces of one sentence share it
             */
            sentence: number;
            text: string;
            /** @description a short-lived URL of the chunk's audio (audio/wav) */
            url: string;
            /** @description the library voice speaking it */
            voice_id?: string;
        };
        RenderStatus: {
            /** @description once succeeded: a short-lived URL of the audio (supports Range) */
            audio_url?: string;
            /** @description why the render failed, or why it is being retried */
            error?: string;
            format: string;
            /** @description the render's job id */
            id: string;
            /** @description e.g. 12 of 40 chunks spoken */
            message?: string;
            /**
             * Format: double
             * @description 0..1: chunks spoken (or found cached) of all
             */
            progress: number;
            /** @description once succeeded */
            result?: components["schemas"]["RenderResult"];
            /** @enum {string} */
            status: "queued" | "running" | "succeeded" | "failed";
            /** @description once succeeded: every sentence's start and end, by chapter */
            timings?: components["schemas"]["RenderTimings"];
            voice_id: string;
        };
        RenderTimings: {
            chapters: components["schemas"]["RenderChapterTiming"][] | null;
            /** Format: int64 */
            duration_ms: number;
        };
        ReviewArticlePatch: {
            /** @description the article's pictures (replaces the list) */
            images?: components["schemas"]["MagazineRegionRef"][] | null;
            /** @description the article's regions in reading order (replaces the list) */
            regions?: components["schemas"]["MagazineRegionRef"][] | null;
            title?: string;
        };
        ReviewOutcome: {
            /** Format: int64 */
            revision: number;
            /** @description true when this change cleared the stored undo point (the Undo button goes away) */
            undo_cleared?: boolean;
            undo_token?: string;
        };
        ReviewRegionPatch: {
            /** @description new box [x,y,w,h] in points (move or resize) */
            bbox?: [
                number,
                number,
                number,
                number
            ];
            description?: string;
            /** @enum {string} */
            kind?: "headline" | "deck" | "subhead" | "byline" | "paragraph" | "list" | "caption" | "pull-quote" | "sidebar" | "footnote" | "source" | "page-number" | "furniture" | "ad" | "image" | "figure" | "chart" | "table" | "code" | "noise" | "duplicate" | "text-in-image";
            /** @description read the text again from the corrected area (text regions); nothing readable keeps the old text */
            reread?: boolean;
            text?: string;
        };
        ReviewapiDescribeOptions: {
            /** @description describe pictures that already have a description too (default: only those without one) */
            redo?: boolean;
        };
        ReviewapiProposalAction: {
            /**
             * @description accept: approve the proposal as it stands; split: cut it in two before the region at; merge: join it with the proposal that follows it (with); dissolve: remove it, its regions stay in no article
             * @enum {string}
             */
            action: "accept" | "split" | "merge" | "dissolve";
            /** @description split: the region the second part starts with */
            at?: components["schemas"]["MagazineRegionRef"];
            /** @description merge: the id of the proposal right after this one */
            with?: string;
        };
        SaveDesignInputBody: {
            accent?: string;
            /** @enum {string} */
            age?: "young" | "middle_aged" | "old" | "";
            description?: string;
            engine: string;
            /** @enum {string} */
            gender?: "female" | "male" | "neutral" | "";
            /** @description the chosen preview's generated_id */
            generated_id: string;
            language?: string;
            name: string;
            tags?: string[] | null;
        };
        SegmentSpeakerOutputBody: {
            /**
             * Format: int64
             * @description the book's new revision
             */
            revision: number;
            segment: components["schemas"]["AudiobookSegment"];
        };
        "Set-character-genderRequest": {
            /**
             * @description female, male, or empty for unknown
             * @enum {string}
             */
            gender: "female" | "male" | "";
        };
        "Set-narrator-voiceRequest": {
            /** @description a voice of the library */
            voice_id: string;
        };
        "Set-page-orderRequest": {
            ids: string[] | null;
        };
        "Set-segment-speakerRequest": {
            /** @description a cast member's name, alias or id */
            speaker: string;
        };
        SetOutBody: {
            characters: components["schemas"]["CharactersCharacter"][] | null;
            set: components["schemas"]["CharactersSet"];
        };
        SetsOutBody: {
            sets: components["schemas"]["CharactersSet"][] | null;
        };
        SettingsUpdate: {
            /** @description check renders that do not ask either way with the ear (speech recognition of every chunk, which speaks a chunk heard wrong again and marks it); decided when the render runs */
            ear_check?: boolean;
            /** @description engine card name to that card's key; same rule per entry */
            engine_api_keys?: {
                [key: string]: string;
            };
            /** @description hosts, host:port, addresses or CIDRs the hosted server may call although they are loopback, link-local or metadata addresses; sent as a whole list, [] clears */
            engine_url_allowlist?: string[] | null;
            /** @description display name of this instance */
            instance_name?: string;
            /** @description global LLM key; __configured__ keeps the saved key, empty clears it */
            llm_api_key?: string;
            /** @description model the LLM engine is asked for */
            llm_model?: string;
            /** @description LLM engine base URL (OpenAI-compatible, ends in /v1); empty clears */
            llm_url?: string;
            /** @description fallback vision OCR engine URL; empty clears */
            vision_ocr_fallback_url?: string;
            /** @description model the vision OCR engines are asked for */
            vision_ocr_model?: string;
            /** @description primary vision OCR engine URL; empty clears */
            vision_ocr_url?: string;
        };
        SettingsView: {
            /** @description whether renders that do not ask either way (audiobooks, issues, articles) are checked by the ear, speech recognition of every chunk; on by default */
            ear_check: boolean;
            engine_api_keys: {
                [key: string]: string;
            };
            engine_url_allowlist: string[] | null;
            instance_name: string;
            llm_api_key: string;
            llm_model: string;
            llm_url: string;
            vision_ocr_fallback_url: string;
            vision_ocr_model: string;
            vision_ocr_url: string;
        };
        SpeechapiChapterInput: {
            /** @description the chapter by voice (podcast hosts, characters): each segment in its own voice, or the render's; give text or segments */
            segments?: components["schemas"]["SpeechapiSegmentInput"][] | null;
            /** @description the chapter in the render's voice; give text or segments */
            text?: string;
            title?: string;
        };
        SpeechapiSegmentInput: {
            text: string;
            /** @description a voice of the library; absent is the render's voice_id */
            voice_id?: string;
        };
        "Split-character-aliasRequest": {
            /** @description one of the character's aliases */
            alias: string;
        };
        "Split-regionRequest": {
            /**
             * Format: int64
             * @description character offset of the cursor
             */
            offset: number;
        };
        SplitOutBody: {
            regions: components["schemas"]["MagazineRegion"][] | null;
            /** Format: int64 */
            revision: number;
            /** @description true when this change cleared the stored undo point (the Undo button goes away) */
            undo_cleared?: boolean;
            undo_token?: string;
        };
        "Start-book-renderRequest": {
            /**
             * Format: int64
             * @description render only this chapter's MP3 (the chapter's index); absent renders the whole book
             */
            chapter?: number;
            /** @description hear every chunk with the ear (speech recognition): a chunk heard wrong is spoken again once, then marked; absent follows Settings (ear_check, on unless switched off) */
            check?: boolean;
            /**
             * Format: double
             * @description multiple of the normal rate, 0.25..4; 0 or absent is 1
             */
            speed?: number;
        };
        "Start-podcast-scriptRequest": {
            /** @description the two hosts; host 0 opens */
            hosts: [
                components["schemas"]["ReadaloudHost"],
                components["schemas"]["ReadaloudHost"]
            ] | null;
            /**
             * Format: int64
             * @description the length to aim at (LLM scripts)
             * @default 5
             */
            minutes?: number;
            /**
             * @description default: llm when Settings have an LLM, else deterministic
             * @enum {string}
             */
            mode?: "llm" | "deterministic";
        };
        StartInputBody: {
            /** @description artist (author or narrator) written into the file */
            artist?: string;
            /** @description the text by chapter; give text or chapters */
            chapters?: components["schemas"]["SpeechapiChapterInput"][] | null;
            /** @description hear every chunk with the ear (speech recognition): a chunk heard wrong is spoken again once, then marked; absent follows Settings (ear_check, on unless switched off) */
            check?: boolean;
            /**
             * @description m4b: AAC in MP4 with chapters (audiobook players); mp3: MP3 with ID3 chapters
             * @default m4b
             * @enum {string}
             */
            format?: "mp3" | "m4b";
            /**
             * Format: double
             * @description multiple of the normal rate, 0.25..4; 0 or absent is 1
             */
            speed?: number;
            /** @description the text, as one chapter; give text or chapters (at most 5,000,000 bytes of UTF-8 in all, titles included) */
            text?: string;
            /** @description title written into the file */
            title?: string;
            /** @description a voice of the library: the text's, and a segment's that names none; required unless every segment names its voice */
            voice_id?: string;
        };
        StatusOutputBody: {
            name: string;
            /** @enum {string} */
            status: "running" | "stopped" | "restarting" | "unhealthy" | "not-installed";
        };
        UndoRequest: {
            token: string;
        };
        UseAsLLMOutputBody: {
            /** @description whether renders that do not ask either way (audiobooks, issues, articles) are checked by the ear, speech recognition of every chunk; on by default */
            ear_check: boolean;
            engine_api_keys: {
                [key: string]: string;
            };
            engine_url_allowlist: string[] | null;
            instance_name: string;
            llm_api_key: string;
            llm_model: string;
            llm_url: string;
            model_choice: components["schemas"]["CardsModelChoice"];
            vision_ocr_fallback_url: string;
            vision_ocr_model: string;
            vision_ocr_url: string;
        };
        VersionBody: {
            /** @description the release version (the VERSION file) */
            version: string;
        };
        "Voice-podcastRequest": {
            /**
             * @description mp3 (default) or m4b
             * @default mp3
             * @enum {string}
             */
            format?: "mp3" | "m4b";
        };
        VoicesConsent: {
            /**
             * Format: date-time
             * @description when it was confirmed
             */
            at: string;
            /** @description who confirmed it */
            by?: string;
            /** @description the uploader confirmed the speaker's consent */
            confirmed: boolean;
            /** @description the statement that was confirmed */
            statement: string;
        };
        VoicesDefaultVoice: {
            /** @description the default is the neural voice */
            neural: boolean;
            /** @description why the neural voice is not the default on this instance */
            reason?: string;
            /** @description the voice narration speaks in until the user picks another */
            voice: components["schemas"]["VoicesVoice"];
        };
        VoicesDesign: {
            description: string;
            engine: string;
            previews: components["schemas"]["VoicesDesignPreview"][] | null;
            /** @description what the samples read */
            text: string;
        };
        VoicesDesignPreview: {
            /** @description suggested accent */
            accent?: string;
            /** @enum {string} */
            age?: "young" | "middle_aged" | "old" | "";
            content_type: string;
            /** @enum {string} */
            gender?: "female" | "male" | "neutral" | "";
            /** @description send it back to save this voice */
            generated_id: string;
            /** @description suggested language tag */
            language?: string;
            /** @description what the description was read to say (offline espeak-ng design) */
            summary?: string;
            /** @description the sample; valid for an hour */
            url: string;
        };
        VoicesImportRequest: {
            /** @description a TTS engine card's name, or espeak-ng */
            engine: string;
        };
        VoicesPreview: {
            /** @description the sample was already made; no engine was called */
            cached: boolean;
            /** @description audio/wav or audio/mpeg */
            content_type: string;
            /** @description blob key of the sample */
            key: string;
            /** @description what the sample says */
            text: string;
            /** @description where to fetch the sample; valid for an hour */
            url: string;
            voice_id: string;
        };
        VoicesRefresh: {
            /**
             * Format: int64
             * @description voices new to the library
             */
            added: number;
            engine: string;
            /** @description the engine listed its voices (GET /v1/audio/voices); false: OpenAI's voice names were assumed */
            listed: boolean;
            /**
             * Format: int64
             * @description voices of this card the engine no longer lists
             */
            removed: number;
            /**
             * Format: int64
             * @description voices the engine has
             */
            voices: number;
        };
        VoicesResult: {
            /**
             * Format: int64
             * @description voices in this page
             */
            count: number;
            /** @description more voices follow this page */
            has_more: boolean;
            /** @description the voices, best match first */
            items: components["schemas"]["VoicesVoice"][] | null;
            /**
             * Format: int64
             * @description offset of the next page; null when there is none
             */
            next_offset: number | null;
            /**
             * Format: int64
             * @description index of this page's first voice among all matches
             */
            offset: number;
            /**
             * Format: int64
             * @description voices matching the search
             */
            total: number;
        };
        VoicesSpec: {
            accent?: string;
            /** @enum {string} */
            age?: "young" | "middle_aged" | "old" | "";
            description?: string;
            /** @description engine card name, or espeak-ng */
            engine: string;
            /** @description the engine's own voice id */
            engine_voice: string;
            /** @enum {string} */
            gender?: "female" | "male" | "neutral" | "";
            /** @description BCP 47 language tag (en, en-gb) */
            language?: string;
            name: string;
            /**
             * @description engine (default) or design when adding; kept when editing
             * @enum {string}
             */
            source?: "engine" | "design" | "";
            /** @description tags of at most 32 characters */
            tags?: string[] | null;
            /**
             * Format: int64
             * @description the version read; 0 overwrites the latest
             */
            version?: number;
        };
        VoicesVoice: {
            /** @description accent, free text (Scottish, New York City) */
            accent: string;
            /**
             * @description age group; empty when unknown
             * @enum {string}
             */
            age: "young" | "middle_aged" | "old" | "";
            /** @description the speaker's consent; clones only */
            consent?: components["schemas"]["VoicesConsent"];
            /**
             * Format: date-time
             * @description when the voice was added
             */
            created: string;
            /** @description what the voice sounds like */
            description: string;
            /** @description engine card name, or a built-in engine: espeak-ng, piper (the neural voice) */
            engine: string;
            /** @description the engine's own voice id (alloy, af_heart, en-us) */
            engine_voice: string;
            /**
             * @description empty when unknown
             * @enum {string}
             */
            gender: "female" | "male" | "neutral" | "";
            /** @description voice id */
            id: string;
            /** @description BCP 47 language tag, lower case (en, en-gb, fr-fr) */
            language: string;
            /** @description display name */
            name: string;
            /** @description blob key of the preview sample, once one was made */
            preview?: string;
            /** @enum {string} */
            source: "builtin" | "engine" | "clone" | "design";
            /** @description lower-case tags */
            tags: string[] | null;
            /** @description why this instance cannot speak in the voice now (say, the neural voice is not installed); empty when it can */
            unavailable?: string;
            /**
             * Format: date-time
             * @description when the voice last changed
             */
            updated: string;
            /**
             * Format: int64
             * @description increases with every change; send it back to update
             */
            version: number;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    "attribute-spans": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Attribute-spansRequest"];
            };
        };
        responses: {
            /** @description Accepted */
            202: {
                headers: {
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobStartedOutBody"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "list-books": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BookListOutputBody"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "upload-book": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "multipart/form-data": {
                    /**
                     * Format: binary
                     * @description the book: TXT (UTF-8 or Latin-1) or EPUB
                     */
                    file: string;
                };
            };
        };
        responses: {
            /** @description Accepted */
            202: {
                headers: {
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AudiobookapiBookView"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "get-book": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description book id */
                book: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AudiobookapiBookView"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "delete-book": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description book id */
                book: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "get-book-cast": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description book id */
                book: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BookCastOutputBody"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "set-character-gender": {
        parameters: {
            query?: never;
            header: {
                /** @description the book's revision (ETag) the edit was made on */
                "If-Match": string;
            };
            path: {
                /** @description book id */
                book: string;
                /** @description the character's id */
                character: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Set-character-genderRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AudiobookapiCastEditView"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "merge-book-characters": {
        parameters: {
            query?: never;
            header: {
                /** @description the book's revision (ETag) the edit was made on */
                "If-Match": string;
            };
            path: {
                /** @description book id */
                book: string;
                /** @description the character's id */
                character: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Merge-book-charactersRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AudiobookapiCastEditView"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "rename-book-character": {
        parameters: {
            query?: never;
            header: {
                /** @description the book's revision (ETag) the edit was made on */
                "If-Match": string;
            };
            path: {
                /** @description book id */
                book: string;
                /** @description the character's id */
                character: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Rename-book-characterRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AudiobookapiCastEditView"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "split-character-alias": {
        parameters: {
            query?: never;
            header: {
                /** @description the book's revision (ETag) the edit was made on */
                "If-Match": string;
            };
            path: {
                /** @description book id */
                book: string;
                /** @description the character's id */
                character: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Split-character-aliasRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AudiobookapiCastEditView"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "set-character-voice": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description book id */
                book: string;
                /** @description the character's id */
                character: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AudiobookapiVoiceBody"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AudiobookCharacter"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "set-narrator-voice": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description book id */
                book: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Set-narrator-voiceRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AudiobookapiBookView"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "get-book-render": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description book id */
                book: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AudiobookapiRenderView"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "start-book-render": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description book id */
                book: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["Start-book-renderRequest"];
            };
        };
        responses: {
            /** @description Accepted */
            202: {
                headers: {
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobStartedOutBody"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "get-book-audio": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description book id */
                book: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Found */
            302: {
                headers: {
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "get-book-chapter-audio": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description book id */
                book: string;
                /** @description the chapter's index */
                chapter: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Found */
            302: {
                headers: {
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "get-book-chapter-timings": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description book id */
                book: string;
                /** @description the chapter's index */
                chapter: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RenderTimings"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "list-book-segments": {
        parameters: {
            query?: {
                /** @description only this chapter's segments (its index); -1 or absent: every chapter */
                chapter?: number;
                /** @description disputed=1: only lines the verify pass disputed */
                disputed?: boolean;
                /** @description text: text order; confidence: only dialogue lines, those without a speaker first, then the least certain (lowest confidence) first */
                sort?: "text" | "confidence";
                limit?: number;
                offset?: number;
            };
            header?: never;
            path: {
                /** @description book id */
                book: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AudiobookSegmentPage"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "set-segment-speaker": {
        parameters: {
            query?: never;
            header: {
                /** @description the book's revision (ETag) the change was made on */
                "If-Match": string;
            };
            path: {
                /** @description book id */
                book: string;
                /** @description the segment's id */
                segment: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Set-segment-speakerRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SegmentSpeakerOutputBody"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "suggest-book-voices": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description book id */
                book: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AudiobookSuggestions"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "list-builtin-engines": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BuiltinsReport"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "list-character-sets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SetsOutBody"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "extract-characters": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Extract-charactersRequest"];
            };
        };
        responses: {
            /** @description Accepted */
            202: {
                headers: {
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExtractOutBody"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "preview-character-prompts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Preview-character-promptsRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PreviewOutBody"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "get-character-set": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description set id */
                set: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SetOutBody"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "delete-character-set": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description set id */
                set: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "get-character": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description set id */
                set: string;
                /** @description character id (a slug of its name) */
                character: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CharactersCharacter"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "edit-character": {
        parameters: {
            query?: never;
            header?: {
                /** @description the character's ETag (its version) */
                "If-Match"?: string;
            };
            path: {
                /** @description set id */
                set: string;
                /** @description character id (a slug of its name) */
                character: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CharactersapiEditBody"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CharactersCharacter"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "add-character-form": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description set id */
                set: string;
                /** @description character id (a slug of its name) */
                character: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Add-character-formRequest"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CharactersCharacter"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "generate-character-image": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description set id */
                set: string;
                /** @description character id (a slug of its name) */
                character: string;
                /** @description form id; the base form is base */
                form: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Generate-character-imageRequest"];
            };
        };
        responses: {
            /** @description Accepted */
            202: {
                headers: {
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobStartedOutBody"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "get-character-image": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description set id */
                set: string;
                /** @description character id (a slug of its name) */
                character: string;
                /** @description form id; the base form is base */
                form: string;
                image: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Found */
            302: {
                headers: {
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "review-character-form": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description set id */
                set: string;
                /** @description character id (a slug of its name) */
                character: string;
                /** @description form id; the base form is base */
                form: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Accepted */
            202: {
                headers: {
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobStartedOutBody"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "list-engine-cards": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListOutputBody"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "put-engine-card": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description card name */
                name: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CardsSpec"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CardsView"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "delete-engine-card": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description card name */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "connect-engine": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description card name */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ModelsOutputBody"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "restart-engine": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description card name */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StatusOutputBody"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "start-engine": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description card name */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StatusOutputBody"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "get-engine-status": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description card name */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StatusOutputBody"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "stop-engine": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description card name */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StatusOutputBody"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "use-engine-as-llm": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description card name */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UseAsLLMOutputBody"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    health: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HealthOutputBody"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "get-job": {
        parameters: {
            query?: never;
            header?: {
                "If-None-Match"?: string;
            };
            path: {
                /** @description the job id an operation answered */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobsapiView"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "list-issues": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IssueListOutputBody"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "upload-issue": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "multipart/form-data": {
                    /**
                     * Format: binary
                     * @description the magazine PDF
                     */
                    file: string;
                    title?: string;
                };
            };
        };
        responses: {
            /** @description Accepted */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MagazineIssue"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "presign-issue-upload": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PresignRequestBody"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PresignOutputBody"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "get-issue": {
        parameters: {
            query?: never;
            header?: {
                "If-None-Match"?: string;
            };
            path: {
                /** @description issue id */
                doc: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MagazineapiIssueView"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "delete-issue": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description issue id */
                doc: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
            /** @description Unprocessable Entity */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "rename-issue": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description issue id */
                doc: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RenameInputBody"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MagazineIssue"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "list-articles": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                doc: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ArticleListOutBody"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "create-article": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                doc: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Create-articleRequest"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ArticleOutBody"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "delete-article": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                doc: string;
                article: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReviewOutcome"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "update-article": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                doc: string;
                article: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ReviewArticlePatch"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ArticleOutBody"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "approve-article": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                doc: string;
                article: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Approve-articleRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ArticleOutBody"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "describe-article": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                doc: string;
                article: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["ReviewapiDescribeOptions"];
            };
        };
        responses: {
            /** @description Accepted */
            202: {
                headers: {
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobStartedOutBody"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "listen-article": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description issue id */
                doc: string;
                article: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Listen-articleRequest"];
            };
        };
        responses: {
            /** @description Accepted */
            202: {
                headers: {
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RenderStatus"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "get-podcast-script": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description issue id */
                doc: string;
                article: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReadaloudRecord"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "edit-podcast-script": {
        parameters: {
            query?: never;
            header: {
                /** @description the record's ETag (its version) the edit was made on */
                "If-Match": string;
            };
            path: {
                /** @description issue id */
                doc: string;
                article: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Edit-podcast-scriptRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReadaloudRecord"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "start-podcast-script": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description issue id */
                doc: string;
                article: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Start-podcast-scriptRequest"];
            };
        };
        responses: {
            /** @description Accepted */
            202: {
                headers: {
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobStartedOutBody"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "voice-podcast": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description issue id */
                doc: string;
                article: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["Voice-podcastRequest"];
            };
        };
        responses: {
            /** @description Accepted */
            202: {
                headers: {
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RenderStatus"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "review-proposal": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                doc: string;
                article: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ReviewapiProposalAction"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ArticlesOutBody"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "article-text": {
        parameters: {
            query?: {
                /** @description 1: each picture's description is read where the picture occurs; 0 (default): pictures are silent */
                descriptions?: number;
                /** @description text (default; a table a row a line, cells a tab apart), markdown (headings and pipe tables) or html (escaped; tables with thead, rowspan and colspan) */
                format?: "text" | "markdown" | "html";
            };
            header?: never;
            path: {
                doc: string;
                article: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ArticleTextOutBody"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "cancel-ingest": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description issue id */
                doc: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MagazineIssue"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
            /** @description Unprocessable Entity */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "describe-issue": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                doc: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["ReviewapiDescribeOptions"];
            };
        };
        responses: {
            /** @description Accepted */
            202: {
                headers: {
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobStartedOutBody"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "refine-figures": {
        parameters: {
            query?: never;
            header?: {
                "If-None-Match"?: string;
            };
            path: {
                /** @description issue id */
                doc: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Accepted */
            202: {
                headers: {
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobStartedOutBody"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
            /** @description Unprocessable Entity */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "fix-reading-order": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                doc: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["Fix-reading-orderRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FixOrderOutBody"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "patch-image": {
        parameters: {
            query?: never;
            header?: {
                /** @description the page version the edit was made on */
                "If-Match"?: string;
            };
            path: {
                doc: string;
                /** @description <page>-<region id>, e.g. 3-p1: the page number and the id of the picture region on it (region ids are unique per page, as in a RegionRef) */
                image_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Patch-imageRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImageOutBody"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "describe-image": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                doc: string;
                /** @description <page>-<region id>, e.g. 3-p1: the page number and the id of the picture region on it (region ids are unique per page, as in a RegionRef) */
                image_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Accepted */
            202: {
                headers: {
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobStartedOutBody"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "listen-issue": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description issue id */
                doc: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Listen-issueRequest"];
            };
        };
        responses: {
            /** @description Accepted */
            202: {
                headers: {
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RenderStatus"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "list-pages": {
        parameters: {
            query?: never;
            header?: {
                "If-None-Match"?: string;
            };
            path: {
                /** @description issue id */
                doc: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PageListOutputBody"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "get-page": {
        parameters: {
            query?: never;
            header?: {
                "If-None-Match"?: string;
            };
            path: {
                doc: string;
                page: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page */
            200: {
                headers: {
                    "Content-Type"?: string;
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MagazineapiPageView"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "cleanup-page": {
        parameters: {
            query?: never;
            header?: {
                /** @description the page version the edit was made on */
                "If-Match"?: string;
            };
            path: {
                /** @description issue id */
                doc: string;
                page: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CleanupOutBody"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "restore-page-backup": {
        parameters: {
            query?: never;
            header?: {
                /** @description the page version the edit was made on */
                "If-Match"?: string;
            };
            path: {
                /** @description issue id */
                doc: string;
                page: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PageOutBody"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "get-region-crop": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                doc: string;
                page: number;
                region: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Found */
            302: {
                headers: {
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "get-page-image": {
        parameters: {
            query?: never;
            header?: {
                "If-None-Match"?: string;
            };
            path: {
                doc: string;
                page: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Found */
            302: {
                headers: {
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "set-page-order": {
        parameters: {
            query?: never;
            header?: {
                /** @description the page version the edit was made on */
                "If-Match"?: string;
            };
            path: {
                /** @description issue id */
                doc: string;
                page: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Set-page-orderRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PageOutBody"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "auto-page-order": {
        parameters: {
            query?: never;
            header?: {
                /** @description the page version the edit was made on */
                "If-Match"?: string;
            };
            path: {
                /** @description issue id */
                doc: string;
                page: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PageOutBody"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "get-page-preview": {
        parameters: {
            query?: never;
            header?: {
                "If-None-Match"?: string;
            };
            path: {
                doc: string;
                page: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PreviewOutputBody"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "recognize-page": {
        parameters: {
            query?: never;
            header?: {
                /** @description the page version the edit was made on */
                "If-Match"?: string;
            };
            path: {
                /** @description issue id */
                doc: string;
                page: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RecognizeInBody"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RecognizeOutBody"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "add-region": {
        parameters: {
            query?: never;
            header?: {
                /** @description the page version the edit was made on */
                "If-Match"?: string;
            };
            path: {
                /** @description issue id */
                doc: string;
                page: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Add-regionRequest"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RegionOutBody"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "bulk-regions": {
        parameters: {
            query?: never;
            header?: {
                /** @description the page version the edit was made on */
                "If-Match"?: string;
            };
            path: {
                /** @description issue id */
                doc: string;
                page: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Bulk-regionsRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReviewOutcome"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "delete-region": {
        parameters: {
            query?: never;
            header?: {
                /** @description the page version the edit was made on */
                "If-Match"?: string;
            };
            path: {
                /** @description issue id */
                doc: string;
                page: number;
                block_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReviewOutcome"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "patch-region": {
        parameters: {
            query?: never;
            header?: {
                /** @description the page version the edit was made on */
                "If-Match"?: string;
            };
            path: {
                /** @description issue id */
                doc: string;
                page: number;
                block_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ReviewRegionPatch"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RegionOutBody"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "merge-region-next": {
        parameters: {
            query?: never;
            header?: {
                /** @description the page version the edit was made on */
                "If-Match"?: string;
            };
            path: {
                /** @description issue id */
                doc: string;
                page: number;
                block_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MergeOutBody"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "split-region": {
        parameters: {
            query?: never;
            header?: {
                /** @description the page version the edit was made on */
                "If-Match"?: string;
            };
            path: {
                /** @description issue id */
                doc: string;
                page: number;
                block_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Split-regionRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SplitOutBody"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "edit-table": {
        parameters: {
            query?: never;
            header?: {
                /** @description the page version the edit was made on */
                "If-Match"?: string;
            };
            path: {
                /** @description issue id */
                doc: string;
                page: number;
                block_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MagazineTableEdit"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RegionOutBody"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "get-page-thumbnail": {
        parameters: {
            query?: never;
            header?: {
                "If-None-Match"?: string;
            };
            path: {
                doc: string;
                page: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Found */
            302: {
                headers: {
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "get-page-view": {
        parameters: {
            query: {
                /** @description resolution in dots per inch (72 is one pixel a point) */
                dpi: number;
                /** @description left edge in points from the page's left */
                x?: number;
                /** @description top edge in points from the page's top */
                y?: number;
                /** @description width in points */
                w: number;
                /** @description height in points */
                h: number;
            };
            header?: {
                "If-None-Match"?: string;
            };
            path: {
                /** @description issue id */
                doc: string;
                page: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The area as PNG */
            200: {
                headers: {
                    "Cache-Control"?: string;
                    "Content-Type"?: string;
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "image/png": string;
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
            /** @description Unprocessable Entity */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "propose-articles": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                doc: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ArticlesOutBody"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    undo: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                doc: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UndoRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReviewOutcome"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "get-settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SettingsView"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "put-settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SettingsUpdate"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SettingsView"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "start-speech-render": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["StartInputBody"];
            };
        };
        responses: {
            /** @description Accepted */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RenderStatus"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "get-speech-render": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the render's id (its job id) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RenderStatus"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "get-speech-render-audio": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the render's id (its job id) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Found */
            302: {
                headers: {
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "list-speech-render-chunks": {
        parameters: {
            query?: {
                /** @description the first chunk's index */
                from?: number;
                /** @description at most this many chunks */
                limit?: number;
            };
            header?: never;
            path: {
                /** @description the render's id (its job id) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RenderChunkList"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    version: {
        parameters: {
            query?: never;
            header?: {
                /** @description application/json for {"version": "…"}; anything else gets the bare version as text */
                Accept?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Content-Type"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VersionBody"];
                    "text/plain": string;
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "search-voice-library": {
        parameters: {
            query?: {
                /** @description words to find in name, description and tags (all of them, ignoring case) */
                q?: string;
                /** @description language tag; en also finds en-us and en-gb */
                language?: string;
                gender?: "female" | "male" | "neutral";
                age?: "young" | "middle_aged" | "old";
                source?: "builtin" | "engine" | "clone" | "design";
                /** @description engine card name, or espeak-ng */
                engine?: string;
                limit?: number;
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VoicesResult"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "create-library-voice": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["VoicesVoice"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VoicesVoice"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "import-library-voices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RemotevoicesImportRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RemotevoicesImportAnswer"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "get-library-voice": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description voice id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VoicesVoice"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "update-library-voice": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description voice id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["VoicesVoice"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VoicesVoice"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "delete-library-voice": {
        parameters: {
            query?: {
                /** @description delete only this version; 0 or absent deletes any */
                version?: number;
            };
            header?: never;
            path: {
                /** @description voice id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "search-voices": {
        parameters: {
            query?: {
                /** @description words to find in name, description and tags (all of them, ignoring case) */
                q?: string;
                /** @description language tag; en also finds en-us and en-gb */
                language?: string;
                gender?: "female" | "male" | "neutral";
                age?: "young" | "middle_aged" | "old";
                source?: "builtin" | "engine" | "clone" | "design";
                /** @description engine card name, or espeak-ng */
                engine?: string;
                limit?: number;
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VoicesResult"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "create-voice": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["VoicesSpec"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VoicesVoice"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "clone-voice": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "multipart/form-data": {
                    accent?: string;
                    /** @enum {string} */
                    age?: "young" | "middle_aged" | "old" | "";
                    /**
                     * Format: binary
                     * @description 5-60 s of the speaker: WAV, MP3, M4A or OGG, at most 10 MiB
                     */
                    audio: string;
                    /** @description true: the uploader confirms the speaker agreed to have their voice cloned */
                    consent: boolean;
                    /** @description who confirms */
                    consent_by?: string;
                    /** @description the statement confirmed; the default one when absent */
                    consent_statement?: string;
                    description?: string;
                    /** @description a TTS engine card whose voice API can clone (chatterbox, elevenlabs) */
                    engine: string;
                    /** @enum {string} */
                    gender?: "female" | "male" | "neutral" | "";
                    language?: string;
                    name: string;
                    /** @description comma-separated tags */
                    tags?: string;
                    /** @description what the recording says (optional; engines that take one clone better) */
                    transcript?: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VoicesVoice"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "default-voice": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VoicesDefaultVoice"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "design-voice": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DesignInputBody"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VoicesDesign"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "save-designed-voice": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SaveDesignInputBody"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VoicesVoice"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "import-voices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["VoicesImportRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VoicesRefresh"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "get-voice": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description voice id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VoicesVoice"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "put-voice": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description voice id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["VoicesSpec"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VoicesVoice"];
                };
            };
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VoicesVoice"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "delete-voice": {
        parameters: {
            query?: {
                /** @description delete only this version; 0 or absent deletes any */
                version?: number;
            };
            header?: never;
            path: {
                /** @description voice id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
    "preview-voice": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description voice id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VoicesPreview"];
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorModel"];
                };
            };
        };
    };
}
type FlattenedDeepRequired<T> = {
    [K in keyof T]-?: FlattenedDeepRequired<T[K] extends unknown[] | undefined | null ? Extract<T[K], unknown[]>[number] : T[K]>;
};
type ReadonlyArray<T> = [
    Exclude<T, undefined>
] extends [
    unknown[]
] ? Readonly<Exclude<T, undefined>> : Readonly<Exclude<T, undefined>[]>;
export const pathsApiAudiobookBooksBookSegmentsGetParametersQuerySortValues: ReadonlyArray<FlattenedDeepRequired<paths>["/api/audiobook/books/{book}/segments"]["get"]["parameters"]["query"]["sort"]> = ["text", "confidence"];
export const pathsApiMagazineDocArticlesArticleTextGetParametersQueryFormatValues: ReadonlyArray<FlattenedDeepRequired<paths>["/api/magazine/{doc}/articles/{article}/text"]["get"]["parameters"]["query"]["format"]> = ["text", "markdown", "html"];
export const pathsApiVoiceLibraryGetParametersQueryGenderValues: ReadonlyArray<FlattenedDeepRequired<paths>["/api/voice-library"]["get"]["parameters"]["query"]["gender"]> = ["female", "male", "neutral"];
export const pathsApiVoiceLibraryGetParametersQueryAgeValues: ReadonlyArray<FlattenedDeepRequired<paths>["/api/voice-library"]["get"]["parameters"]["query"]["age"]> = ["young", "middle_aged", "old"];
export const pathsApiVoiceLibraryGetParametersQuerySourceValues: ReadonlyArray<FlattenedDeepRequired<paths>["/api/voice-library"]["get"]["parameters"]["query"]["source"]> = ["builtin", "engine", "clone", "design"];
export const pathsApiVoicesGetParametersQueryGenderValues: ReadonlyArray<FlattenedDeepRequired<paths>["/api/voices"]["get"]["parameters"]["query"]["gender"]> = ["female", "male", "neutral"];
export const pathsApiVoicesGetParametersQueryAgeValues: ReadonlyArray<FlattenedDeepRequired<paths>["/api/voices"]["get"]["parameters"]["query"]["age"]> = ["young", "middle_aged", "old"];
export const pathsApiVoicesGetParametersQuerySourceValues: ReadonlyArray<FlattenedDeepRequired<paths>["/api/voices"]["get"]["parameters"]["query"]["source"]> = ["builtin", "engine", "clone", "design"];
export const pathsApiVoicesClonePostRequestBodyContentMultipartFormDataAgeValues: ReadonlyArray<FlattenedDeepRequired<paths>["/api/voices/clone"]["post"]["requestBody"]["content"]["multipart/form-data"]["age"]> = ["young", "middle_aged", "old", ""];
export const pathsApiVoicesClonePostRequestBodyContentMultipartFormDataGenderValues: ReadonlyArray<FlattenedDeepRequired<paths>["/api/voices/clone"]["post"]["requestBody"]["content"]["multipart/form-data"]["gender"]> = ["female", "male", "neutral", ""];
export const addRegionRequestKindValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["Add-regionRequest"]["kind"]> = ["headline", "deck", "subhead", "byline", "paragraph", "list", "caption", "pull-quote", "sidebar", "footnote", "source", "page-number", "furniture", "ad", "image", "figure", "chart", "table", "code", "noise", "duplicate", "text-in-image"];
export const attributeSpansRequestModeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["Attribute-spansRequest"]["mode"]> = ["span", "classic"];
export const audiobookCharacterGenderValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["AudiobookCharacter"]["gender"]> = ["female", "male", ""];
export const audiobookCharacterSuggestionAgeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["AudiobookCharacterSuggestion"]["age"]> = ["young", "middle_aged", "old", ""];
export const audiobookOutputFormatValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["AudiobookOutput"]["format"]> = ["m4b", "mp3"];
export const audiobookSegmentKindValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["AudiobookSegment"]["kind"]> = ["narration", "dialogue"];
export const audiobookSegmentMarkValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["AudiobookSegment"]["mark"]> = ["agreed", "disputed", ""];
export const audiobookSuggestedVoiceAgeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["AudiobookSuggestedVoice"]["age"]> = ["young", "middle_aged", "old", ""];
export const audiobookSuggestedVoiceGenderValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["AudiobookSuggestedVoice"]["gender"]> = ["female", "male", "neutral", ""];
export const audiobookSummaryStatusValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["AudiobookSummary"]["status"]> = ["importing", "ready", "failed"];
export const audiobookapiBookViewFormatValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["AudiobookapiBookView"]["format"]> = ["txt", "epub"];
export const audiobookapiBookViewModeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["AudiobookapiBookView"]["mode"]> = ["span", "classic"];
export const audiobookapiBookViewStatusValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["AudiobookapiBookView"]["status"]> = ["importing", "ready", "failed"];
export const audiobookapiCastEditViewFormatValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["AudiobookapiCastEditView"]["format"]> = ["txt", "epub"];
export const audiobookapiCastEditViewModeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["AudiobookapiCastEditView"]["mode"]> = ["span", "classic"];
export const audiobookapiCastEditViewStatusValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["AudiobookapiCastEditView"]["status"]> = ["importing", "ready", "failed"];
export const audiobookapiRenderViewStatusValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["AudiobookapiRenderView"]["status"]> = ["queued", "running", "succeeded", "failed"];
export const builtinsEngineNameValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["BuiltinsEngine"]["name"]> = ["text-layer", "tesseract", "espeak-ng", "piper", "whisper", "ffmpeg"];
export const bulkRegionsRequestActionValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["Bulk-regionsRequest"]["action"]> = ["delete", "set-kind"];
export const bulkRegionsRequestKindValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["Bulk-regionsRequest"]["kind"]> = ["headline", "deck", "subhead", "byline", "paragraph", "list", "caption", "pull-quote", "sidebar", "footnote", "source", "page-number", "furniture", "ad", "image", "figure", "chart", "table", "code", "noise", "duplicate", "text-in-image"];
export const cardsModelChoiceSourceValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["CardsModelChoice"]["source"]> = ["card", "engine", "none"];
export const cardsSpecKindValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["CardsSpec"]["kind"]> = ["llm", "vision-ocr", "vision-ocr-fallback", "vision", "tts", "image", "other"];
export const cardsSpecOcr_presetValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["CardsSpec"]["ocr_preset"]> = ["lectern", "dots-ocr", "olmocr", "docling", "qwen2.5-vl", "qwen3-vl", ""];
export const cardsSpecVoice_apiValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["CardsSpec"]["voice_api"]> = ["openai", "chatterbox", "elevenlabs", ""];
export const cardsViewKindValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["CardsView"]["kind"]> = ["llm", "vision-ocr", "vision-ocr-fallback", "vision", "tts", "image", "other"];
export const cardsViewOcr_presetValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["CardsView"]["ocr_preset"]> = ["lectern", "dots-ocr", "olmocr", "docling", "qwen2.5-vl", "qwen3-vl", ""];
export const cardsViewUrl_sourceValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["CardsView"]["url_source"]> = ["card", "default", "missing"];
export const cardsViewVoice_apiValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["CardsView"]["voice_api"]> = ["openai", "chatterbox", "elevenlabs", ""];
export const charactersImageKindValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["CharactersImage"]["kind"]> = ["avatar", "concept", "turnaround", "story"];
export const charactersSetMethodValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["CharactersSet"]["method"]> = ["rules", "llm", ""];
export const charactersSetSourceValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["CharactersSet"]["source"]> = ["book", "text"];
export const charactersSetStatusValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["CharactersSet"]["status"]> = ["extracting", "ready", "failed"];
export const charactersapiEditBodyRoleValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["CharactersapiEditBody"]["role"]> = ["protagonist", "major", "minor"];
export const generateCharacterImageRequestKindValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["Generate-character-imageRequest"]["kind"]> = ["avatar", "concept", "pair", "turnaround", "story"];
export const healthOutputBodyStatusValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["HealthOutputBody"]["status"]> = ["ok"];
export const issueListOutputBodyUploadValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["IssueListOutputBody"]["upload"]> = ["form", "presigned"];
export const jobStartedOutBodyStatusValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["JobStartedOutBody"]["status"]> = ["queued", "running", "succeeded", "failed"];
export const jobsapiViewStatusValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["JobsapiView"]["status"]> = ["queued", "running", "succeeded", "failed"];
export const listenArticleRequestFormatValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["Listen-articleRequest"]["format"]> = ["mp3", "m4b"];
export const listenIssueRequestFormatValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["Listen-issueRequest"]["format"]> = ["mp3", "m4b"];
export const magazineChangeFromValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["MagazineChange"]["from"]> = ["headline", "deck", "subhead", "byline", "paragraph", "list", "caption", "pull-quote", "sidebar", "footnote", "source", "page-number", "furniture", "ad", "image", "figure", "chart", "table", "code", "noise", "duplicate", "text-in-image"];
export const magazineChangeToValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["MagazineChange"]["to"]> = ["headline", "deck", "subhead", "byline", "paragraph", "list", "caption", "pull-quote", "sidebar", "footnote", "source", "page-number", "furniture", "ad", "image", "figure", "chart", "table", "code", "noise", "duplicate", "text-in-image"];
export const magazineCleanedKindValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["MagazineCleaned"]["kind"]> = ["headline", "deck", "subhead", "byline", "paragraph", "list", "caption", "pull-quote", "sidebar", "footnote", "source", "page-number", "furniture", "ad", "image", "figure", "chart", "table", "code", "noise", "duplicate", "text-in-image"];
export const magazineRegionKindValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["MagazineRegion"]["kind"]> = ["headline", "deck", "subhead", "byline", "paragraph", "list", "caption", "pull-quote", "sidebar", "footnote", "source", "page-number", "furniture", "ad", "image", "figure", "chart", "table", "code", "noise", "duplicate", "text-in-image"];
export const magazineRegionVisual_kindValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["MagazineRegion"]["visual_kind"]> = ["headline", "deck", "subhead", "byline", "paragraph", "list", "caption", "pull-quote", "sidebar", "footnote", "source", "page-number", "furniture", "ad", "image", "figure", "chart", "table", "code", "noise", "duplicate", "text-in-image"];
export const magazineTableEditOpValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["MagazineTableEdit"]["op"]> = ["set_cell", "insert_row", "delete_row", "insert_col", "delete_col", "header_rows", "caption"];
export const presignOutputBodyMethodValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["PresignOutputBody"]["method"]> = ["POST"];
export const readaloudRecordSourceValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["ReadaloudRecord"]["source"]> = ["llm", "deterministic", "edited"];
export const readaloudRecordStatusValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["ReadaloudRecord"]["status"]> = ["ok", "flagged", "failed"];
export const readaloudViolationKindValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["ReadaloudViolation"]["kind"]> = ["number", "name", "quote"];
export const recognizeInBodyEngineValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["RecognizeInBody"]["engine"]> = ["text-layer", "vision-primary", "vision-fallback", "tesseract"];
export const renderChunkListStatusValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["RenderChunkList"]["status"]> = ["queued", "running", "succeeded", "failed"];
export const renderEarReportStatusValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["RenderEarReport"]["status"]> = ["checked", "off", "unavailable"];
export const renderStatusStatusValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["RenderStatus"]["status"]> = ["queued", "running", "succeeded", "failed"];
export const reviewRegionPatchKindValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["ReviewRegionPatch"]["kind"]> = ["headline", "deck", "subhead", "byline", "paragraph", "list", "caption", "pull-quote", "sidebar", "footnote", "source", "page-number", "furniture", "ad", "image", "figure", "chart", "table", "code", "noise", "duplicate", "text-in-image"];
export const reviewapiProposalActionActionValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["ReviewapiProposalAction"]["action"]> = ["accept", "split", "merge", "dissolve"];
export const saveDesignInputBodyAgeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["SaveDesignInputBody"]["age"]> = ["young", "middle_aged", "old", ""];
export const saveDesignInputBodyGenderValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["SaveDesignInputBody"]["gender"]> = ["female", "male", "neutral", ""];
export const setCharacterGenderRequestGenderValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["Set-character-genderRequest"]["gender"]> = ["female", "male", ""];
export const startPodcastScriptRequestModeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["Start-podcast-scriptRequest"]["mode"]> = ["llm", "deterministic"];
export const startInputBodyFormatValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["StartInputBody"]["format"]> = ["mp3", "m4b"];
export const statusOutputBodyStatusValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["StatusOutputBody"]["status"]> = ["running", "stopped", "restarting", "unhealthy", "not-installed"];
export const voicePodcastRequestFormatValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["Voice-podcastRequest"]["format"]> = ["mp3", "m4b"];
export const voicesDesignPreviewAgeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["VoicesDesignPreview"]["age"]> = ["young", "middle_aged", "old", ""];
export const voicesDesignPreviewGenderValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["VoicesDesignPreview"]["gender"]> = ["female", "male", "neutral", ""];
export const voicesSpecAgeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["VoicesSpec"]["age"]> = ["young", "middle_aged", "old", ""];
export const voicesSpecGenderValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["VoicesSpec"]["gender"]> = ["female", "male", "neutral", ""];
export const voicesSpecSourceValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["VoicesSpec"]["source"]> = ["engine", "design", ""];
export const voicesVoiceAgeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["VoicesVoice"]["age"]> = ["young", "middle_aged", "old", ""];
export const voicesVoiceGenderValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["VoicesVoice"]["gender"]> = ["female", "male", "neutral", ""];
export const voicesVoiceSourceValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["VoicesVoice"]["source"]> = ["builtin", "engine", "clone", "design"];
