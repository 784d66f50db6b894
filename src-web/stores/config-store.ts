import { makeAutoObservable, observableRef } from 'mobx';
import type { BootstrapConfig } from '@contract/api/config';
import { pageTitle } from '../platform/page-title';

/** The provider's configuration (docs/rules/shell.md#configuration), read once at start. */
export class ConfigStore {
  config: BootstrapConfig;

  constructor(config: BootstrapConfig) {
    this.config = config;
    makeAutoObservable(this, { config: observableRef });
  }

  get app() {
    return this.config.app;
  }

  get radiology() {
    return this.config.radiology;
  }

  get theme() {
    return this.config.theme;
  }

  get environment() {
    return this.config.environment;
  }

  get integration() {
    return this.config.integration;
  }

  /** document.title by the title rule (docs/rules/shell.md#page-title): name, then ' | ' and the meta title when set. */
  get title(): string {
    return pageTitle(this.radiology.name, this.app.metaTitle);
  }

  replace(config: BootstrapConfig): void {
    this.config = config;
  }
}
