package dev.panlite.sample;

import java.util.List;
import java.util.Set;
import org.springframework.data.domain.Sort;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

@RestController
public class NoteController {
    private final Notes notes;

    public NoteController(Notes notes) {
        this.notes = notes;
    }

    @GetMapping("/notes")
    public List<Note> all() {
        return notes.findAll(Sort.by("id"));
    }

    @GetMapping("/notes/{id}")
    public Note one(@PathVariable("id") long id) {
        return notes.findById(id).orElseThrow(() -> new ResponseStatusException(HttpStatus.NOT_FOUND));
    }

    @PostMapping("/notes")
    public Note add(@RequestBody Note note) {
        return notes.save(new Note(null, note.text(), null, note.tags() == null ? Set.of() : note.tags()));
    }
}
