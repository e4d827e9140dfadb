package dev.panlite.spring;

import org.springframework.data.annotation.Id;

public record Tag(@Id String name, int uses) {}
