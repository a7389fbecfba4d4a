package dev.breaker.sample.catalog;

import java.util.List;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** {@code GET /catalog}: the products, from memory. */
@RestController
class CatalogController {

	private final Catalog catalog;

	CatalogController(Catalog catalog) {
		this.catalog = catalog;
	}

	@GetMapping("/catalog")
	List<Product> catalog() {
		return this.catalog.products();
	}

}
